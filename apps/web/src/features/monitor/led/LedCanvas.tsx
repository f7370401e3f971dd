import { ledLiveText, ledValueKey, type LedElement, type LedPage } from '@shuili/contract';
import type { CSSProperties, PointerEvent as ReactPointerEvent } from 'react';
import { useDeviceImage } from './led-api';

/** How an element is being moved or resized on the editor's canvas. */
export type DragKind = 'move' | 'resize';

export interface LedCanvasProps {
  page: LedPage | null | undefined;
  width: number;
  height: number;
  /** Screen pixels to CSS pixels. */
  scale: number;
  /** Live values by `<deviceId>.<property>`. */
  values?: Record<string, number>;
  selectedId?: string;
  /** Elements with a problem (the editor outlines them). */
  faultyIds?: ReadonlySet<string>;
  /** Editing: pressing an element starts moving it, its corner resizing it. */
  onPointerDown?: (event: ReactPointerEvent, element: LedElement, kind: DragKind) => void;
  onCanvasPointerDown?: () => void;
  testId?: string;
}

function ImageElement({ fileId }: { fileId: string | undefined }) {
  const url = useDeviceImage(fileId);
  return url ? (
    <img src={url} alt="" style={{ width: '100%', height: '100%', objectFit: 'contain' }} />
  ) : null;
}

/**
 * One page of an LED program as the screen draws it: its background and elements at their
 * pixel positions, scaled up (thumbnail, preview, editor canvas). Text is one line clipped to its
 * box as a screen clips it; a live value shows its caption, number and unit.
 */
export function LedCanvas({
  page,
  width,
  height,
  scale,
  values = {},
  selectedId,
  faultyIds,
  onPointerDown,
  onCanvasPointerDown,
  testId,
}: LedCanvasProps) {
  return (
    <div
      data-testid={testId}
      onPointerDown={onCanvasPointerDown}
      style={{
        position: 'relative',
        width: width * scale,
        height: height * scale,
        background: page?.background ?? '#000000',
        overflow: 'hidden',
        flex: 'none',
        // The screen's pixel grid, faint, on the editor's canvas only.
        backgroundImage: onPointerDown
          ? 'linear-gradient(rgba(255,255,255,0.06) 1px, transparent 1px), linear-gradient(90deg, rgba(255,255,255,0.06) 1px, transparent 1px)'
          : undefined,
        backgroundSize: onPointerDown ? `${8 * scale}px ${8 * scale}px` : undefined,
      }}
    >
      {page?.elements.map((element) => {
        const selected = element.id === selectedId;
        const style: CSSProperties = {
          position: 'absolute',
          left: element.x * scale,
          top: element.y * scale,
          width: element.width * scale,
          height: element.height * scale,
          color: element.color,
          fontSize: element.fontSize * scale,
          lineHeight: `${element.height * scale}px`,
          textAlign: element.align,
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          fontFamily: 'sans-serif',
          cursor: onPointerDown ? 'move' : undefined,
          outline: selected
            ? '1px dashed #40a9ff'
            : faultyIds?.has(element.id)
              ? '1px solid #ff4d4f'
              : onPointerDown
                ? '1px dotted rgba(255,255,255,0.25)'
                : undefined,
          userSelect: 'none',
          touchAction: 'none',
        };
        const text =
          element.type === 'live'
            ? ledLiveText(
                element,
                element.binding ? values[ledValueKey(element.binding)] : undefined,
              )
            : element.type === 'text'
              ? element.text
              : null;
        return (
          <div
            key={element.id}
            style={style}
            data-testid="led-element"
            data-element={element.id}
            onPointerDown={
              onPointerDown
                ? (event) => {
                    event.stopPropagation();
                    onPointerDown(event, element, 'move');
                  }
                : undefined
            }
          >
            {element.type === 'image' ? <ImageElement fileId={element.fileId} /> : text}
            {selected && onPointerDown && (
              <span
                data-testid="led-resize"
                onPointerDown={(event) => {
                  event.stopPropagation();
                  onPointerDown(event, element, 'resize');
                }}
                style={{
                  position: 'absolute',
                  right: 0,
                  bottom: 0,
                  width: 10,
                  height: 10,
                  background: '#40a9ff',
                  cursor: 'nwse-resize',
                }}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
