// The plug-ins the binary has code for, by upstream name, and the chain built from the enabled
// ones. A name that is known (AllOrderedPlugins) but has no factory yet is skipped by the caller's
// choice, so the flags can accept every upstream name before every plug-in exists.
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
   * With `skipUnimplemented`, names without a factory are left out instead.
   */
  newChain(names: readonly string[], configFor: (name: string) => unknown, deps: PluginDeps, skipUnimplemented = false): AdmissionChain {
    const plugins: AdmissionPlugin[] = [];
    for (const name of names) {
      const factory = this.factories.get(name);
      if (!factory) {
        if (skipUnimplemented) continue;
        throw new Error(`unknown admission plugin: ${name}`);
      }
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
