import type { Lang, PublicTrace } from '@shuili/contract';
import { h } from './dom';
import { say } from './strings';
import { traceView } from './trace-view';

/** The page's top bar: the tenant's logo (if any) and title. */
export function header(title: string, logo?: string | null): HTMLElement {
  return h(
    'header',
    { class: 'top' },
    logo ? h('img', { src: logo, alt: '', width: '32', height: '32' }) : null,
    h('h1', null, title),
  );
}

/**
 * A batch's whole page as a consumer sees it, in the look the tenant set: its title (else the
 * page's own), colour and logo above the batch's view. The public page (main.ts) shows it; the
 * console's settings page previews it with the same code (features/trace/home-mode).
 */
export function tracePage(
  lang: Lang,
  trace: PublicTrace,
  root: HTMLElement,
): { title: string; nodes: HTMLElement[] } {
  const title = trace.page.title || say(lang, 'pageTitle');
  if (trace.page.color) root.style.setProperty('--brand', trace.page.color);
  else root.style.removeProperty('--brand');
  return { title, nodes: [header(title, trace.page.logo), traceView(lang, trace)] };
}
