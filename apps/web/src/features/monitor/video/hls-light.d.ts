// hls.js's light build (no subtitles, alternate audio or DRM: cameras need none) ships without
// its own declarations; it is the same API as the full build.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
  export * from 'hls.js';
}
