/**
 * The picture a video element shows now, as a JPEG. Undefined when there is none yet, or when
 * the browser forbids reading it (a stream from an origin that does not allow it taints the
 * canvas: toBlob then throws a SecurityError), so the caller falls back to the server.
 */
export async function captureFrame(video: HTMLVideoElement): Promise<Blob | undefined> {
  if (video.readyState < 2 || video.videoWidth === 0) return undefined;
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context) return undefined;
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  try {
    return await new Promise<Blob | undefined>((resolve) =>
      canvas.toBlob((blob) => resolve(blob ?? undefined), 'image/jpeg', 0.9),
    );
  } catch (error) {
    if (error instanceof DOMException && error.name === 'SecurityError') return undefined;
    throw error;
  }
}
