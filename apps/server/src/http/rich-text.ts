import type { EntityDef } from '@shuili/contract';
import sanitizeHtml from 'sanitize-html';
import { AppError } from './app-error';

/** Colours as the editor writes them: names, #hex, rgb()/rgba(); never url() or expressions. */
const COLOUR = [/^#[0-9a-f]{3,8}$/i, /^[a-z]{3,20}$/i, /^rgba?\(\s*[\d.,\s%]+\)$/i];
const LENGTH = [/^\d{1,4}(?:\.\d{1,3})?(?:px|em|rem|%|pt)$/];

/**
 * What a publisher's rich text may hold: formatting, lists, tables, links and images, nothing
 * that runs or reaches out by itself. Any tag not listed is dropped (its text kept, except for
 * script, style and the like, which go with their content); any attribute not listed, every on*
 * handler among them, is dropped; URLs are http(s), mailto and tel only (images also inline
 * data:), so javascript: and vbscript: links become plain text; styles are a few properties
 * whose values must match the patterns above, so `url()` and `expression()` never survive.
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'div', 'span', 'blockquote', 'pre', 'code',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'sub', 'sup', 'small', 'mark',
    'ul', 'ol', 'li',
    'a', 'img',
    'table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  ], // prettier-ignore
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    '*': ['style'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  allowedStyles: {
    '*': {
      color: COLOUR,
      'background-color': COLOUR,
      'text-align': [/^(?:left|right|center|justify)$/],
      'font-size': LENGTH,
      'font-weight': [/^(?:normal|bold|[1-9]00)$/],
      'font-style': [/^(?:normal|italic)$/],
      'text-decoration': [/^(?:none|underline|line-through)$/],
      'padding-left': LENGTH,
    },
  },
  transformTags: {
    // A link that opens a new tab must not hand the console's window to the page it opens.
    a: (tagName, { target, rel: _rel, ...attribs }) => ({
      tagName,
      attribs: target === '_blank' ? { ...attribs, target, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

/** A rich-text value reduced to the allowed markup (see POLICY). */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, POLICY);
}

/** Whether sanitised markup still has something to read or see (text or an image). */
function hasContent(html: string): boolean {
  return /<img\b/i.test(html) || html.replace(/<[^>]*>|&nbsp;/g, '').trim() !== '';
}

/**
 * Sanitises, in place, every rich-text field of an entity write before it is stored, so every
 * reader (the console, exports, other API clients) only ever gets allowed markup. A required
 * field that held nothing but disallowed markup is refused naming the field.
 */
export function sanitizeRichTextFields(entity: EntityDef, values: Record<string, unknown>): void {
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.kind !== 'richtext' || typeof values[name] !== 'string') continue;
    const clean = sanitizeRichText(values[name]);
    if (field.required && !hasContent(clean))
      throw new AppError(400, 'validation.required', {
        fields: [{ field: name, key: 'validation.required' }],
      });
    values[name] = clean;
  }
}
