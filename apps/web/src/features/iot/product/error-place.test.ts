import { describe, expect, it } from 'vitest';
import { errorPlace } from './error-place';

describe('errorPlace', () => {
  it('reads rows and the path inside them, with or without the body prefix', () => {
    expect(errorPlace('thingModel.properties.2.key')).toEqual({
      section: 'properties',
      index: 2,
      path: 'key',
    });
    expect(errorPlace('commands.0.params.1.max')).toEqual({
      section: 'commands',
      index: 0,
      path: 'params.1.max',
    });
  });

  it('reads a whole-list error and refuses paths outside the model', () => {
    expect(errorPlace('thingModel.events')).toEqual({
      section: 'events',
      index: undefined,
      path: '',
    });
    expect(errorPlace('serialNo')).toBeUndefined();
    expect(errorPlace('thingModel.widgets.1')).toBeUndefined();
  });
});
