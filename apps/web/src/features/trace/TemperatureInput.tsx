import { Input } from 'antd';

/** The list as text; what was typed stays as typed. */
const shown = (value: unknown) =>
  typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? ''
      : JSON.stringify(value);

/**
 * A shipment's recorded temperatures as JSON text ([{"at": ISO time, "celsius": number}]): the
 * form holds the list the server answers, the text area shows it and sends what is typed (the
 * server parses and checks it, naming the field when it is not such a list).
 */
export function TemperatureInput({
  value,
  onChange,
  id,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
}) {
  return (
    <Input.TextArea
      id={id}
      value={shown(value)}
      autoSize={{ minRows: 2, maxRows: 8 }}
      onChange={(event) => onChange?.(event.target.value)}
    />
  );
}
