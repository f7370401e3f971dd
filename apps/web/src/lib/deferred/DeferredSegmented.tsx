import { ConfigProvider } from 'antd';
import { lazy, Suspense, useContext, useEffect, useId, type ReactNode } from 'react';
import { deferredModule } from './deferred-module';
import styles from './DeferredSegmented.module.css';

/** Ant Design's Segmented: its switch animation, keyboard moves and styles, about 3.5 KB of gzip. */
export const segmentedModule = deferredModule(() => import('antd/es/segmented'));

// Rendered only once the download is done: it suspends for a tick, showing the stand-in meanwhile.
const LoadedSegmented = lazy(() => segmentedModule.load());

type Option<Value> = { value: Value; label: ReactNode };

export interface DeferredSegmentedProps<Value> {
  options: Option<Value>[];
  value: Value;
  onChange(value: Value): void;
  block?: boolean;
  className?: string;
}

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/**
 * Ant Design's Segmented for a page that must paint before its code arrives (the sign-in tabs):
 * until the visitor's first interaction downloads it, a stand-in with the same markup and look
 * shows the options, and already switches them.
 */
export function DeferredSegmented<Value extends string>(props: DeferredSegmentedProps<Value>) {
  const loaded = segmentedModule.useLoaded();

  useEffect(() => {
    if (!loaded) segmentedModule.loadOnInteraction();
  }, [loaded]);

  const standIn = <SegmentedStandIn {...props} />;
  if (!loaded) return standIn;
  return (
    <Suspense fallback={standIn}>
      <LoadedSegmented
        block={props.block}
        className={props.className}
        options={props.options}
        value={props.value}
        onChange={(next) => props.onChange(next as Value)}
      />
    </Suspense>
  );
}

function SegmentedStandIn<Value extends string>({
  options,
  value,
  onChange,
  block,
  className,
}: DeferredSegmentedProps<Value>) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const { componentSize } = ConfigProvider.useConfig();
  const name = useId();
  const prefix = getPrefixCls('segmented');
  const large = componentSize === 'large';

  return (
    <div
      role="radiogroup"
      aria-orientation="horizontal"
      className={cx(
        prefix,
        styles.segmented,
        block && `${prefix}-block ${styles.block}`,
        large && `${prefix}-lg ${styles.large}`,
        className,
      )}
    >
      <div className={`${prefix}-group ${styles.group}`}>
        {options.map((option) => {
          const selected = option.value === value;
          return (
            <label
              key={option.value}
              className={cx(
                `${prefix}-item ${styles.item}`,
                selected && `${prefix}-item-selected ${styles.selected}`,
              )}
            >
              <input
                className={`${prefix}-item-input ${styles.input}`}
                type="radio"
                name={name}
                checked={selected}
                onChange={() => onChange(option.value)}
              />
              <div
                className={`${prefix}-item-label ${styles.label}`}
                title={typeof option.label === 'string' ? option.label : undefined}
              >
                {option.label}
              </div>
            </label>
          );
        })}
      </div>
    </div>
  );
}
