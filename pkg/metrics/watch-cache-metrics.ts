// The watch cache's metrics, named and labelled as upstream's (k8s.io/apiserver/pkg/storage/
// cacher/metrics), registered on the server's registry.
import { Counter, Gauge, type Registry } from 'prom-client';

export class WatchCacheMetrics {
  private readonly listTotal: Counter<'index' | 'resource_prefix'>;
  private readonly listFetched: Counter<'index' | 'resource_prefix'>;
  private readonly listReturned: Counter<'resource_prefix'>;
  private readonly eventsReceived: Counter<'resource'>;
  private readonly initializations: Counter<'resource'>;
  private readonly capacity: Gauge<'resource'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.listTotal = new Counter({ name: 'apiserver_cache_list_total', help: 'Number of LIST requests served from watch cache', labelNames: ['index', 'resource_prefix'], registers });
    this.listFetched = new Counter({ name: 'apiserver_cache_list_fetched_objects_total', help: 'Number of objects read from watch cache in the course of serving a LIST request', labelNames: ['index', 'resource_prefix'], registers });
    this.listReturned = new Counter({ name: 'apiserver_cache_list_returned_objects_total', help: 'Number of objects returned for a LIST request from watch cache', labelNames: ['resource_prefix'], registers });
    this.eventsReceived = new Counter({ name: 'apiserver_watch_cache_events_received_total', help: 'Counter of events received in watch cache broken by resource type.', labelNames: ['resource'], registers });
    this.initializations = new Counter({ name: 'apiserver_watch_cache_initializations_total', help: 'Counter of watch cache initializations broken by resource type.', labelNames: ['resource'], registers });
    this.capacity = new Gauge({ name: 'apiserver_watch_cache_capacity', help: 'Total capacity of watch cache broken by resource type.', labelNames: ['resource'], registers });
  }

  /** A list served from memory: `index` names the index used ('namespace', or '' for a whole resource). */
  listed(resourcePrefix: string, index: string, fetched: number, returned: number): void {
    this.listTotal.inc({ index, resource_prefix: resourcePrefix });
    this.listFetched.inc({ index, resource_prefix: resourcePrefix }, fetched);
    this.listReturned.inc({ resource_prefix: resourcePrefix }, returned);
  }

  received(resource: string, n = 1): void {
    this.eventsReceived.inc({ resource }, n);
  }

  initialized(resource: string, capacity: number): void {
    this.initializations.inc({ resource });
    this.capacity.set({ resource }, capacity);
  }
}
