import {
  LANGUAGE_COOKIE,
  PUBLIC_TRACE_PAGES,
  parseTraceCode,
  publicTraceUrl,
  resolveLang,
  type Lang,
  type PublicTrace,
  type TraceCodeProblem,
} from '@shuili/contract';
import { h } from './dom';
import { say, type Key } from './strings';
import { header, tracePage } from './trace-page';
import './trace-home.css';

/**
 * The signed-out pages /traceHome?code=… and /search (docs/traceability.md "Public page"): plain
 * DOM, no console code, no external fonts or scripts. The language is the console's cookie, else
 * the browser's.
 */
const cookieLang = /(?:^|;\s*)([^=]+)=([^;]*)/g;
function cookie(name: string): string | undefined {
  for (const [, key, value] of document.cookie.matchAll(cookieLang))
    if (key === name) return decodeURIComponent(value ?? '');
  return undefined;
}

const lang: Lang = resolveLang(cookie(LANGUAGE_COOKIE), navigator.languages);
const text = (key: Key, params?: Record<string, string | number>) => say(lang, key, params);
const root = document.getElementById('app')!;
document.documentElement.lang = { en: 'en', zh: 'zh-CN', tw: 'zh-TW' }[lang];

function show(...children: HTMLElement[]) {
  root.replaceChildren(...children);
}

const PROBLEM_KEYS: Record<TraceCodeProblem, Key> = {
  empty: 'codeEmpty',
  characters: 'codeCharacters',
  length: 'codeLength',
  check: 'codeCheck',
};

function searchPage(initial = '', problem?: TraceCodeProblem) {
  document.title = text('searchTitle');
  const input = h('input', {
    id: 'code',
    name: 'code',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    inputmode: 'text',
    placeholder: text('codePlaceholder'),
    'aria-describedby': 'code-error',
  }) as HTMLInputElement;
  input.value = initial;
  const error = h('p', { id: 'code-error', class: 'error', role: 'alert' });
  const setProblem = (found?: TraceCodeProblem) => {
    error.textContent = found ? text(PROBLEM_KEYS[found]) : '';
    input.setAttribute('aria-invalid', found ? 'true' : 'false');
  };
  setProblem(problem);
  const form = h(
    'form',
    { class: 'card search', novalidate: '' },
    h('h2', null, text('searchTitle')),
    h('p', { class: 'muted' }, text('searchHint')),
    h('label', { for: 'code' }, text('codeLabel')),
    input,
    error,
    h('button', { type: 'submit' }, text('lookUp')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const parsed = parseTraceCode(input.value);
    if (!parsed.ok) {
      setProblem(parsed.reason);
      input.focus();
      return;
    }
    location.assign(`${PUBLIC_TRACE_PAGES.home}?code=${encodeURIComponent(parsed.code)}`);
  });
  show(header(text('pageTitle')), h('main', null, form));
}

function message(note: string, retry: boolean) {
  const actions = h('p', { class: 'actions' });
  if (retry) {
    const button = h('button', { type: 'button' }, text('retry'));
    button.addEventListener('click', () => void homePage());
    actions.append(button);
  }
  actions.append(h('a', { href: PUBLIC_TRACE_PAGES.search }, text('another')));
  show(
    header(text('pageTitle')),
    h(
      'main',
      null,
      h('section', { class: 'card message', role: 'alert' }, h('p', null, note), actions),
    ),
  );
}

async function homePage() {
  const asked = new URLSearchParams(location.search).get('code') ?? '';
  const parsed = parseTraceCode(asked);
  if (!parsed.ok) return searchPage(asked, asked ? parsed.reason : undefined);
  document.title = text('pageTitle');
  show(header(text('pageTitle')), h('main', null, h('p', { class: 'loading' }, text('loading'))));
  let response: Response;
  try {
    response = await fetch(publicTraceUrl(parsed.code), {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch {
    return message(text('failed'), true);
  }
  if (response.status === 404) {
    // The server's translated message, else ours.
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    return message(body?.message || text('notFound'), false);
  }
  if (!response.ok) return message(text('failed'), true);
  const body = (await response.json()) as { data: PublicTrace };
  const trace = body.data;
  const page = tracePage(lang, trace, document.documentElement);
  document.title = trace.product ? `${trace.product.cropName} · ${page.title}` : page.title;
  show(...page.nodes);
}

if (location.pathname === PUBLIC_TRACE_PAGES.search) searchPage();
else void homePage();
