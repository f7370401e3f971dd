import { DownOutlined, LoadingOutlined } from '@ant-design/icons';
import { ConfigProvider } from 'antd';
import { FormItemInputContext } from 'antd/es/form/context';
import type { SelectProps } from 'antd/es/select';
import {
  lazy,
  Suspense,
  useContext,
  useEffect,
  useState,
  type AriaAttributes,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';
import styles from './DeferredSelect.module.css';
import { deferredModule } from './deferred-module';

/** Ant Design's Select: about 30 KB of gzip with its virtual list, overflow and styles. */
export const selectModule = deferredModule(() => import('antd/es/select'));

type Option<Value> = { value: Value; label?: ReactNode; disabled?: boolean };

export type DeferredSelectProps<Value> = SelectProps<Value, Option<Value>> & {
  'data-testid'?: string;
} & AriaAttributes;

interface Intent {
  focused: boolean;
  pressed: boolean;
}

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

// Rendered only once the download is done: it suspends for a tick, showing the stand-in meanwhile.
const LoadedSelect = lazy(() => selectModule.load());

/**
 * Ant Design's Select, for pages that must paint before its code arrives (the sign-in page):
 * until the first interaction downloads it, a stand-in with the same markup, classes and look
 * shows the value or the placeholder. Focus or a press that reached the stand-in is handed over,
 * so the real one opens or takes the keyboard where the stand-in left off.
 */
export function DeferredSelect<Value extends string | number>(props: DeferredSelectProps<Value>) {
  const loaded = selectModule.useLoaded();
  const [intent, setIntent] = useState<Intent>({ focused: false, pressed: false });

  useEffect(() => {
    if (!loaded) selectModule.loadOnInteraction();
  }, [loaded]);

  const standIn = <SelectStandIn {...props} onIntent={setIntent} />;
  if (!loaded) return standIn;
  return (
    <Suspense fallback={standIn}>
      <LoadedSelect
        {...(props as SelectProps)}
        autoFocus={props.autoFocus || intent.focused || intent.pressed}
        defaultOpen={props.defaultOpen || intent.pressed}
      />
    </Suspense>
  );
}

function SelectStandIn<Value extends string | number>({
  onIntent,
  ...props
}: DeferredSelectProps<Value> & { onIntent: Dispatch<SetStateAction<Intent>> }) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const { componentSize } = ConfigProvider.useConfig();
  const { status: formStatus, isFormItemInput } = useContext(FormItemInputContext);
  const prefix = getPrefixCls('select');
  const size = props.size ?? componentSize;
  const variant = props.variant ?? 'outlined';
  const status = props.status ?? formStatus;
  const option = props.options?.find((item) => item.value === props.value);
  const hasValue = props.value !== undefined && props.value !== null && option !== undefined;
  const label = option?.label ?? props.value;

  const ariaProps = Object.fromEntries(
    Object.entries(props).filter(([key]) => key.startsWith('aria-')),
  );

  return (
    <div
      data-testid={props['data-testid']}
      className={cx(
        prefix,
        styles.select,
        size === 'large' && `${prefix}-lg ${styles.large}`,
        `${prefix}-${variant}`,
        variant === 'outlined' && styles.outlined,
        variant === 'borderless' && styles.borderless,
        isFormItemInput && `${prefix}-in-form-item ${styles.inFormItem}`,
        status === 'error' && `${prefix}-status-error ${styles.error}`,
        `${prefix}-single ${prefix}-show-arrow`,
        props.className,
      )}
      style={props.style}
      onPointerEnter={selectModule.preload}
      onPointerDown={() => {
        onIntent({ focused: true, pressed: true });
        selectModule.preload();
      }}
    >
      <div
        className={cx(
          `${prefix}-content`,
          hasValue && `${prefix}-content-has-value`,
          styles.content,
          !hasValue && styles.empty,
        )}
        title={hasValue && typeof label === 'string' ? label : undefined}
      >
        {hasValue ? (
          label
        ) : (
          <div className={`${prefix}-placeholder ${styles.placeholder}`}>{props.placeholder}</div>
        )}
        <input
          {...ariaProps}
          id={props.id}
          className={`${prefix}-input ${styles.input}`}
          role="combobox"
          aria-expanded={false}
          aria-haspopup="listbox"
          readOnly
          autoComplete="off"
          value=""
          onFocus={() => {
            onIntent((intent) => ({ ...intent, focused: true }));
            selectModule.preload();
          }}
          onBlur={() => onIntent((intent) => ({ ...intent, focused: false }))}
        />
      </div>
      <div className={`${prefix}-suffix ${styles.suffix}`}>
        {props.loading ? <LoadingOutlined spin /> : <DownOutlined />}
      </div>
    </div>
  );
}
