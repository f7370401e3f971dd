import { CODE, ROLE_CODE_HEADER } from '@shuili/contract';
import { getActiveRole, getToken } from '../lib/auth-storage';
import { HttpError, httpErrorText, type ErrorBody } from '../lib/http';
import { refreshAccessToken } from '../lib/oauth';
import { readJson } from '../lib/read-json';
import type { QueryParams } from './search-params';

export interface DownloadProgress {
  loaded: number;
  /** From Content-Length; undefined when the server did not say. */
  total: number | undefined;
}

export interface DownloadedFile {
  filename: string;
  blob: Blob;
}

/**
 * The file name of a Content-Disposition header: the RFC 5987 `filename*` (UTF-8, for names in
 * Chinese) before the plain `filename`; undefined when there is none.
 */
export function filenameOf(disposition: string | null | undefined): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape: fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(disposition);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name || undefined;
}

/** Whole percent of a download, or undefined when its size is unknown. */
export function percentOf(progress: DownloadProgress): number | undefined {
  if (!progress.total || progress.total <= 0) return undefined;
  return Math.min(100, Math.floor((progress.loaded / progress.total) * 100));
}

function withQuery(url: string, params: QueryParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) query.append(key, value);
  const text = query.toString();
  return text ? `${url}?${text}` : url;
}

function send(url: string, signal: AbortSignal | undefined): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = getToken();
  const role = getActiveRole();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (role) headers[ROLE_CODE_HEADER] = role;
  return fetch(url, { method: 'POST', headers, signal, credentials: 'same-origin' });
}

/**
 * POSTs an export call and reads the file as a stream, reporting progress against
 * Content-Length. Failures are HttpErrors with the spec §8 text, like every other call's.
 */
export async function downloadFile(
  url: string,
  params: QueryParams,
  onProgress: (progress: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  const target = withQuery(url, params);
  let response = await send(target, signal);
  if (response.status === 401) {
    const body = (await readJson(response.clone())) as ErrorBody | null;
    if (body?.error === 'invalid_token' && body.code === CODE.tokenExpired) {
      if (await refreshAccessToken()) response = await send(target, signal);
    }
  }
  if (!response.ok) {
    const body = ((await readJson(response)) ?? {}) as ErrorBody;
    throw new HttpError(
      httpErrorText(response.status, body, response.statusText || String(response.status)),
      response.status,
      typeof body.code === 'number' ? body.code : undefined,
      [],
    );
  }

  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  onProgress({ loaded, total });
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      onProgress({ loaded, total });
    }
  } else {
    const buffer = new Uint8Array(await response.arrayBuffer());
    chunks.push(buffer);
    loaded = buffer.byteLength;
    onProgress({ loaded, total });
  }
  const fallback = url.split('/').at(-1) ?? 'export';
  return {
    filename: filenameOf(response.headers.get('Content-Disposition')) ?? fallback,
    blob: new Blob(chunks, { type }),
  };
}

/** Hands a downloaded file to the browser's save machinery. */
export function saveFile(file: DownloadedFile): void {
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has handed the blob over; free it once the browser has started the save.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
