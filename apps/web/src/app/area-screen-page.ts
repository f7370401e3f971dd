import { createElement, type ComponentType } from 'react';
import { lazyPage, type LazyPage } from '../core/lazy-page';
import type { FeatureArea } from '../i18n/i18n';
import type { AreaScreenProps } from '../features/monitor/screens/area-screen-props';

/**
 * An area screen or page as its own chunk, shown once the user's zones are loaded (spec §2,
 * ZonesGate), with the strings of the entity kit and IoT (values, tags), the zone gate's (admin)
 * and the monitor's own. The zone gate comes with the screen's chunk, not with the route table:
 * its zone store's calls would bring zod into the shell.
 */
export const monitorScreen = <Name extends string>(
  load: () => Promise<Record<Name, ComponentType<AreaScreenProps>>>,
  name: Name,
  /** Strings of the page's own feature area (billing), besides the monitor's. */
  more: readonly FeatureArea[] = [],
): LazyPage<AreaScreenProps> =>
  lazyPage<Name, AreaScreenProps>(
    () =>
      Promise.all([load(), import('../features/admin-extra/ZonesGate')]).then(
        ([module, { ZonesGate }]) => {
          const Screen = module[name];
          const Gated = (props: AreaScreenProps) =>
            createElement(ZonesGate, null, createElement(Screen, props));
          return { [name]: Gated } as Record<Name, ComponentType<AreaScreenProps>>;
        },
      ),
    name,
    ['resource', 'admin', 'iot', 'monitor', ...more],
  );
