import { useEffect, useState } from 'react';
import { downloadFile } from '../../../resource/download-file';

/**
 * An image the server serves only to signed-in callers (a device photo, a species picture) as an
 * object URL an <img> can show: fetched with the session's token, released when the component
 * lets go of it. Undefined while loading; null when there is none.
 */
export function useImageUrl(
  url: string,
  id: string | undefined,
  version?: string | null,
): string | null | undefined {
  const key = id ? `${url}?${id}#${version ?? ''}` : '';
  const [loaded, setLoaded] = useState<{ key: string; src: string | null }>({ key: '', src: null });
  useEffect(() => {
    if (!id) return undefined;
    const aborted = new AbortController();
    let made: string | undefined;
    downloadFile(url, { id }, () => undefined, aborted.signal).then(
      (file) => {
        made = URL.createObjectURL(file.blob);
        setLoaded({ key, src: made });
      },
      () => {
        if (!aborted.signal.aborted) setLoaded({ key, src: null });
      },
    );
    return () => {
      aborted.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [url, id, key]);
  if (!id) return null;
  return loaded.key === key ? loaded.src : undefined;
}
