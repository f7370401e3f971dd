/** The targets a fertigation machine mixes to, as the last recipe it accepted set them. */
export interface RecipeTargets {
  ec?: number;
  ph?: number;
  /** When the machine accepted them (ISO). */
  since?: string;
}

/** An operation record as the command list answers it (params: JSON text or an object). */
export interface CommandRecord {
  name: string;
  status: string;
  params: unknown;
  createdAt?: string;
  ackedAt?: string | null;
}

/** The command that sets a machine's recipe (FERT-4CH thing model: targetEc, targetPh). */
export const SET_RECIPE = 'setRecipe';

function paramsOf(params: unknown): Record<string, unknown> {
  if (typeof params === 'string') {
    try {
      const parsed = JSON.parse(params) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
}

const finite = (value: unknown): number | undefined => {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
};

/**
 * The targets in force: those of the newest recipe command the machine acknowledged (records
 * newest first). A refused or unanswered one set nothing on the machine.
 */
export function recipeTargetsOf(records: readonly CommandRecord[]): RecipeTargets {
  const accepted = records.find(
    (record) => record.name === SET_RECIPE && record.status === 'succeeded',
  );
  if (!accepted) return {};
  const params = paramsOf(accepted.params);
  return {
    ec: finite(params.targetEc),
    ph: finite(params.targetPh),
    since: accepted.ackedAt ?? accepted.createdAt,
  };
}

/** Whether a value is within target ± band (undefined when either is unknown). */
export function withinBand(
  value: number | undefined,
  target: number | undefined,
  band: number,
): boolean | undefined {
  if (value === undefined || target === undefined) return undefined;
  return Math.abs(value - target) <= band + 1e-9;
}
