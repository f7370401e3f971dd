import { paintPng, type Rgb } from '@shuili/sim';

// The painter (paintPng) lives with the simulator, whose insect traps draw their photos with it.

const SKY: Rgb = [150, 200, 235];
const FIELD: Rgb = [96, 160, 72];
const WATER: Rgb = [58, 120, 190];
const CONCRETE: Rgb = [170, 170, 165];
const STEEL: Rgb = [90, 96, 104];

/** A site photo of a canal with a sluice gate: sky, fields, the canal and the gate's frame. */
export function gatePhoto(): Buffer {
  return paintPng(96, 64, (x, y) => {
    if (y < 22) return SKY;
    const inCanal = y > 34 && y < 50;
    if (x >= 40 && x <= 56 && y >= 16 && y <= 52) {
      if (x <= 42 || x >= 54 || y <= 18) return STEEL; // the hoist frame
      if (y < 34) return CONCRETE; // the raised leaf
    }
    return inCanal ? WATER : FIELD;
  });
}

/** An installation photo of a valve box: the field, the green box and its grey lid. */
export function valveBoxPhoto(): Buffer {
  return paintPng(96, 64, (x, y) => {
    if (y < 18) return SKY;
    if (x >= 30 && x <= 66 && y >= 26 && y <= 56) return y <= 30 ? CONCRETE : [40, 110, 70];
    if (x >= 44 && x <= 52 && y >= 40 && y <= 46) return STEEL; // the valve's handwheel
    return FIELD;
  });
}
