/** A tiny element builder: text is always set as text, never parsed as HTML. */
export type Child = Node | string | null | undefined | false;

export function h(
  tag: string,
  attrs: Record<string, string | undefined> | null = null,
  ...children: Child[]
): HTMLElement {
  const element = document.createElement(tag);
  if (attrs)
    for (const [name, value] of Object.entries(attrs))
      if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}
