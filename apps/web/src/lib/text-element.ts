/**
 * A DOM element showing a string as text, never as markup. For the widgets that take a string as
 * HTML (Leaflet's tooltips, popups and markers; chart tooltip formatters): a device name, a label
 * or a reading goes to them only through this, so `<a>`, `<img onerror>` or `<script>` in the
 * data is shown as typed instead of being rendered.
 */
export function textElement(text: string, tag: keyof HTMLElementTagNameMap = 'span'): HTMLElement {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}
