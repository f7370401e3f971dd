import { http, HttpError } from '../../../lib/http';

/**
 * A call another part of the console may not offer (not installed yet, or not granted to this
 * reader): answers undefined then, so the widget falls back to what it can compute itself.
 * Other failures stay failures.
 */
export async function optionalCall<T>(
  url: string,
  params: Record<string, string | number | undefined>,
  signal: AbortSignal,
): Promise<T | undefined> {
  try {
    return await http.get<T>(url, { params, signal, silent: true });
  } catch (error) {
    if (error instanceof HttpError && [403, 404, 405, 501].includes(error.status)) return undefined;
    throw error;
  }
}
