// The plug-ins the binary has code for, by upstream name, and the chain built from the enabled
// ones. Being registered is what makes a known name (AllOrderedPlugins) runnable: the flags refuse
// any other name that is on.
import { AdmissionChain } from './chain.js';
import type { AdmissionPlugin, PluginDeps } from './interfaces.js';

/**
 * Makes a plug-in from its configuration (undefined when the configuration file gives none) and
 * the server's dependencies; throws to refuse it.
 */
export type PluginFactory = (configuration: unknown, deps: PluginDeps) => AdmissionPlugin;

/**
 * What a factory throws when its configuration decodes but fails the plug-in's own validation,
 * which upstream reports after making the plug-in (`failed to initialize admission plugin`).
 */
export class PluginInitializationError extends Error {}

export class PluginRegistry {
  private readonly factories = new Map<string, PluginFactory>();

  register(name: string, factory: PluginFactory): void {
    if (this.factories.has(name)) throw new Error(`admission plugin ${JSON.stringify(name)} was registered twice`);
    this.factories.set(name, factory);
  }

  registered(): string[] {
    return [...this.factories.keys()].sort();
  }

  has(name: string): boolean {
    return this.factories.has(name);
  }

  /**
   * The chain of `names` (already in run order), each made with its configuration. Upstream's
   * wording for a name without code and for a factory that fails; the first failure stops start-up.
   */
  newChain(names: readonly string[], configFor: (name: string) => unknown, deps: PluginDeps): AdmissionChain {
    const plugins: AdmissionPlugin[] = [];
    for (const name of names) {
      const factory = this.factories.get(name);
      if (!factory) throw new Error(`unknown admission plugin: ${name}`);
      let plugin: AdmissionPlugin;
      try {
        plugin = factory(configFor(name), deps);
      } catch (e) {
        const failed = e instanceof PluginInitializationError ? 'failed to initialize admission plugin' : "couldn't init admission plugin";
        throw new Error(`${failed} ${JSON.stringify(name)}: ${e instanceof Error ? e.message : String(e)}`);
      }
      plugins.push(plugin);
    }
    return new AdmissionChain(plugins, deps.metrics);
  }
}
