const BLOCKS = 'p,div,section,article,header,footer,h1,h2,h3,h4,h5,h6,li,tr,blockquote,pre,table';

/**
 * A publisher's rich-text content as plain text, paragraphs kept as line breaks. The HTML is
 * parsed into an inert document (DOMParser runs no script and loads no image), and only its text
 * ever reaches the page, so no markup from a publisher is rendered.
 */
export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll('script,style,template,noscript,iframe,object').forEach((node) => {
    node.remove();
  });
  doc.querySelectorAll('br').forEach((node) => node.replaceWith('\n'));
  doc.querySelectorAll('li').forEach((node) => node.prepend('• '));
  doc.querySelectorAll(BLOCKS).forEach((node) => node.append('\n'));
  return (doc.body.textContent ?? '')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
