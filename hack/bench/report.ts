// What the run prints: a line per measured cell as it finishes (so a long run shows progress and a
// failure shows how far it got), then one markdown table of every figure.
import type { Roles } from './proc-stats.js';

export interface Row {
  figure: string;
  orch: string;
  /** The same figure measured on raw etcd, where it has one. */
  etcd?: string;
  /** orch / etcd, where both exist. */
  ratio?: string;
  /** CPU of each process while the orch figure was measured. */
  cpu?: Roles;
  /** CPU while the raw etcd figure was measured. */
  etcdCpu?: Roles;
}

export class Report {
  readonly rows: Row[] = [];

  /** A line of progress, printed now. */
  line(text: string): void {
    process.stdout.write(`${text}\n`);
  }

  /** A figure in the old `name value unit` form other issues quote (managedFields, codec figures). */
  figure(name: string, value: number, unit: string): void {
    this.line(`${name.padEnd(48)} ${value.toFixed(unit === 'ms' ? 2 : unit === '%' ? 1 : 0).padStart(10)} ${unit}`);
  }

  add(row: Row): void {
    this.rows.push(row);
  }

  table(): string {
    const head = ['figure', 'orch', 'raw etcd', 'orch / etcd', 'CPU orch: server / etcd / load', 'CPU raw etcd: server / etcd / load'];
    const cores = (c: Roles | undefined) => (c ? `${c.server.toFixed(2)} / ${c.etcd.toFixed(2)} / ${c.load.toFixed(2)}` : '');
    const cells = this.rows.map((r) => [r.figure, r.orch, r.etcd ?? '', r.ratio ?? '', cores(r.cpu), cores(r.etcdCpu)]);
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const line = (c: string[]) => `| ${c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join(' | ')} |`;
    const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 2)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
    return [line(head), rule, ...cells.map(line), '', 'CPU columns: cores used by each process while the figure was measured (1.00 = one core busy throughout).'].join('\n');
  }
}

export function fmtRate(perSecond: number): string {
  return perSecond >= 100 ? perSecond.toFixed(0) : perSecond.toFixed(1);
}

export function fmtMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export function fmtRatio(r: number): string {
  return Number.isFinite(r) ? r.toFixed(2) : 'n/a';
}

export function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}
