import type { PublicTrace } from '@shuili/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocaleStore } from '../../../i18n/i18n';
import pageCss from '../../../public-trace/trace-home.css?inline';
import { tracePage } from '../../../public-trace/trace-page';

/** A phone's width: the public page is laid out for 360 px first. */
export const PHONE_WIDTH = 360;
const PHONE_HEIGHT = 640;

const SKELETON = `<!doctype html><html><head><meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0"></head>
<body><div id="app"></div></body></html>`;

/**
 * The public page as a consumer will see it once the settings are saved: the public page's own
 * rendering code (public-trace/trace-page.ts) and stylesheet, inside a frame of a phone's width
 * (its own document, so the page's styles and the console's never mix), fed the public call's
 * answer computed by the server with the unsaved settings (previewPageSetting).
 */
export function PublicPagePreview({ trace }: { trace: PublicTrace | undefined }) {
  const { t } = useTranslation();
  const lang = useLocaleStore((state) => state.lang);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    const doc = frame.current?.contentDocument;
    if (!doc) return;
    if (!doc.getElementById('app')) {
      doc.open();
      doc.write(SKELETON);
      doc.close();
      const style = doc.createElement('style');
      style.textContent = pageCss;
      doc.head.append(style);
    }
    const app = doc.getElementById('app')!;
    if (!trace) {
      app.replaceChildren();
      return;
    }
    const page = tracePage(lang, trace, doc.documentElement);
    doc.title = page.title;
    app.replaceChildren(...page.nodes.map((node) => doc.adoptNode(node)));
  }, [trace, lang]);

  return (
    <iframe
      ref={frame}
      title={t('trace.homeMode.previewTitle')}
      data-testid="home-mode-preview"
      width={PHONE_WIDTH}
      height={PHONE_HEIGHT}
      style={{
        border: '8px solid #1f2328',
        borderRadius: 24,
        background: '#f4f6f8',
        boxSizing: 'content-box',
      }}
    />
  );
}
