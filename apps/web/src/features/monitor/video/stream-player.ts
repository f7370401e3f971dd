import type { CameraStreamType } from '@shuili/contract';

/** A running player: stop it when the cell shows another camera or goes away. */
export interface StreamPlayer {
  destroy(): void;
}

/** Why a stream does not play, for the cell's message. */
export type StreamProblem = 'unsupported' | 'network' | 'media';

/**
 * Plays a camera's stream in a video element. HLS through hls.js (light build) where the browser
 * has Media Source Extensions, natively where it plays HLS itself (Safari); HTTP-FLV through
 * mpegts.js. Each library downloads only when a stream of its kind is first played, so no other
 * page pays for them. A VOD clip (the demo's) loops.
 */
export async function playStream(
  video: HTMLVideoElement,
  type: CameraStreamType,
  url: string,
  onProblem: (problem: StreamProblem) => void,
): Promise<StreamPlayer> {
  if (type === 'hls') {
    const { default: Hls } = await import('hls.js/light');
    if (!Hls.isSupported()) {
      if (!video.canPlayType('application/vnd.apple.mpegurl')) {
        onProblem('unsupported');
        return { destroy: () => undefined };
      }
      video.src = url;
      void video.play().catch(() => undefined);
      return {
        destroy: () => {
          video.removeAttribute('src');
          video.load();
        },
      };
    }
    const hls = new Hls({ lowLatencyMode: true, backBufferLength: 30 });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
        hls.recoverMediaError();
        return;
      }
      onProblem(data.type === Hls.ErrorTypes.NETWORK_ERROR ? 'network' : 'media');
    });
    hls.loadSource(url);
    hls.attachMedia(video);
    hls.on(Hls.Events.MANIFEST_PARSED, () => void video.play().catch(() => undefined));
    return { destroy: () => hls.destroy() };
  }
  const { default: mpegts } = await import('mpegts.js');
  if (!mpegts.isSupported()) {
    onProblem('unsupported');
    return { destroy: () => undefined };
  }
  const player = mpegts.createPlayer({ type: 'flv', isLive: true, url });
  player.on(mpegts.Events.ERROR, (kind: string) =>
    onProblem(kind === mpegts.ErrorTypes.NETWORK_ERROR ? 'network' : 'media'),
  );
  player.attachMediaElement(video);
  player.load();
  void Promise.resolve(player.play()).catch(() => undefined);
  return {
    destroy: () => {
      player.pause();
      player.unload();
      player.detachMediaElement();
      player.destroy();
    },
  };
}
