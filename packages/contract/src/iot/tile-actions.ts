import type { Label } from '../entity-kit/label';
import { paramProblem } from './command-check';
import { SET_PROPERTY_COMMAND, type ThingModel, type ThingParam } from './thing-model';

/** A control offered beside one live value (its tile on the device page). */
export interface TileAction {
  /** The command sent: one of the thing model's commands, or setProperty. */
  command: string;
  name: Label;
  /** Every parameter of the command (a writable property for setProperty). */
  params: ThingParam[];
  /** Parameters the tile decides (the channel of the valve it shows). */
  fixed: Record<string, number>;
  /** Parameters still asked of the operator (the duration of an opening). */
  ask: ThingParam[];
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

/** The fixed parameters under which a command's `property` template names `key`, if it does. */
function matchTemplate(
  template: string,
  params: readonly ThingParam[],
  key: string,
): Record<string, number> | undefined {
  const names: string[] = [];
  const parts = template.split(PLACEHOLDER);
  // Each number must end where a non-digit follows (or the key ends): `{a}{b}` or `{a}1{b}` is
  // ambiguous, and the pattern it would build backtracks exponentially on a long key of digits,
  // freezing the page of every device of the product. Such a template offers no control.
  for (let index = 2; index < parts.length; index += 2) {
    const endsKey = index === parts.length - 1 && parts[index] === '';
    if (!endsKey && !/^\D/.test(parts[index]!)) return undefined;
  }
  const pattern = parts
    .map((part, index) => {
      if (index % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part);
      return '(\\d+)';
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(key);
  if (!match) return undefined;
  const fixed: Record<string, number> = {};
  for (const [index, name] of names.entries()) {
    const param = params.find((one) => one.key === name);
    const value = Number(match[index + 1]);
    // Only an integer parameter can be read off a key, and only a value it accepts.
    if (param?.type !== 'integer' || paramProblem(param, value)) return undefined;
    fixed[name] = value;
  }
  return fixed;
}

/**
 * The controls each live value offers, by property key, derived from the thing model alone:
 * every command whose `property` names that value (its placeholders fixing parameters such as
 * the valve's channel), then setProperty when the property is writable.
 */
export function tileActions(model: ThingModel): Map<string, TileAction[]> {
  const actions = new Map<string, TileAction[]>();
  const add = (key: string, action: TileAction) =>
    actions.set(key, [...(actions.get(key) ?? []), action]);
  for (const property of model.properties) {
    for (const command of model.commands) {
      if (!command.property) continue;
      const fixed = matchTemplate(command.property, command.params, property.key);
      if (!fixed) continue;
      add(property.key, {
        command: command.key,
        name: command.name,
        params: command.params,
        fixed,
        ask: command.params.filter((param) => !(param.key in fixed)),
      });
    }
    if (property.access === 'rw')
      add(property.key, {
        command: SET_PROPERTY_COMMAND,
        name: property.name,
        params: [property],
        fixed: {},
        ask: [property],
      });
  }
  return actions;
}
