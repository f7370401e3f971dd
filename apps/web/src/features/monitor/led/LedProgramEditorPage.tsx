import {
  DeleteOutlined,
  FieldNumberOutlined,
  FontSizeOutlined,
  PictureOutlined,
  PlusOutlined,
  SaveOutlined,
  SendOutlined,
} from '@ant-design/icons';
import {
  LED_MAX_ELEMENTS,
  LED_MAX_PAGES,
  LED_PAGE_SECONDS,
  ledProgramProblems,
  TOAST_MS,
  type LedElement,
  type LedElementType,
  type LedPage,
  type LedProgramContent,
} from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  InputNumber,
  List,
  Select,
  Space,
  Typography,
} from 'antd';
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { HttpError } from '../../../lib/http';
import { feedback } from '../../../lib/feedback';
import type { AreaScreenProps } from '../screens/area-screen-props';
import { ledApi, useLedPrograms } from './led-api';
import { editProgramPath, setProgramPath } from './led-paths';
import { LedCanvas, type DragKind } from './LedCanvas';
import { LedElementProperties } from './LedElementProperties';
import { LedPreview } from './LedPreview';
import { moved, newElement, newPage, problemTarget, resized } from './program-edit';
import { useLiveValues } from './use-live-values';

/** The canvas's widest drawing in CSS pixels (a 192-pixel screen drawn 3 times as large). */
const CANVAS_WIDTH = 576;

interface Drag {
  kind: DragKind;
  id: string;
  startX: number;
  startY: number;
  from: LedElement;
}

/**
 * /led/ledEditProgram?id=: a program's pages on a canvas at its resolution, scaled up. Elements
 * are added, dragged and resized on it and edited in the properties panel; the pages list sets
 * each page's duration; the preview plays the program with the bound devices' values as they are.
 * Saving checks it on the server (elements inside the resolution, live values on properties their
 * devices have) and marks what it refused.
 */
export function LedProgramEditorPage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const programs = useLedPrograms();
  const id = search.get('id') ?? programs.data?.list[0]?.id;
  const loaded = useQuery({
    queryKey: ['led', 'content', id],
    queryFn: ({ signal }) => ledApi.content(id!, signal),
    enabled: !!id,
  });
  const [draft, setDraft] = useState<LedProgramContent | undefined>();
  const [pageIndex, setPageIndex] = useState(0);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const [serverErrors, setServerErrors] = useState<Array<{ field: string; message: string }>>([]);
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);
  const drag = useRef<Drag | undefined>(undefined);

  // A program (re)loaded from the server starts a new editing session: its pages, nothing
  // selected, no errors (state derived while rendering, not in an effect).
  const [base, setBase] = useState<LedProgramContent | undefined>();
  if (loaded.data && loaded.data !== base) {
    setBase(loaded.data);
    setDraft(loaded.data);
    // Saved: the same program stays on its page; another program opens on its first.
    if (base?.id !== loaded.data.id) setPageIndex(0);
    setSelectedId(undefined);
    setServerErrors([]);
    setDirty(false);
  }

  const resolution = draft ? { width: draft.width, height: draft.height } : { width: 1, height: 1 };
  const scale = Math.min(8, CANVAS_WIDTH / resolution.width);
  const page = draft?.pages[pageIndex];
  const selected = page?.elements.find((element) => element.id === selectedId);
  const values = useLiveValues(draft?.pages ?? []);
  const localProblems = useMemo(
    () => (draft ? ledProgramProblems(draft.pages, draft) : []),
    [draft],
  );

  const update = (
    change: (pages: LedPage[]) => LedPage[],
    patch: Partial<LedProgramContent> = {},
  ) => {
    setDraft((current) =>
      current ? { ...current, ...patch, pages: change(current.pages) } : current,
    );
    setDirty(true);
  };
  const updatePage = (change: (page: LedPage) => LedPage) =>
    update((pages) => pages.map((one, index) => (index === pageIndex ? change(one) : one)));
  const updateElement = (element: LedElement) =>
    updatePage((one) => ({
      ...one,
      elements: one.elements.map((other) => (other.id === element.id ? element : other)),
    }));

  const add = (type: LedElementType) => {
    if (!page) return;
    const caption =
      type === 'text'
        ? t('monitor.led.newText')
        : type === 'live'
          ? t('monitor.led.newCaption')
          : '';
    const element = newElement(page, type, resolution, caption);
    updatePage((one) => ({ ...one, elements: [...one.elements, element] }));
    setSelectedId(element.id);
  };

  const startDrag = (event: PointerEvent, element: LedElement, kind: DragKind) => {
    setSelectedId(element.id);
    drag.current = {
      kind,
      id: element.id,
      startX: event.clientX,
      startY: event.clientY,
      from: element,
    };
  };
  useEffect(() => {
    const move = (event: globalThis.PointerEvent) => {
      const current = drag.current;
      if (!current) return;
      const dx = (event.clientX - current.startX) / scale;
      const dy = (event.clientY - current.startY) / scale;
      updateElement(
        current.kind === 'move'
          ? moved(current.from, current.from, dx, dy, resolution)
          : resized(current.from, current.from, dx, dy, resolution),
      );
    };
    const end = () => {
      drag.current = undefined;
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
    };
  });

  const save = async () => {
    if (!draft) return;
    setSaving(true);
    try {
      const saved = await ledApi.save({
        id: draft.id,
        width: draft.width,
        height: draft.height,
        pages: draft.pages,
      });
      setServerErrors([]);
      setDirty(false);
      queryClient.setQueryData(['led', 'content', draft.id], saved);
      await queryClient.invalidateQueries({ queryKey: ['led', 'programs'] });
      feedback.success(t('monitor.led.saved'), TOAST_MS.success / 1000);
    } catch (error) {
      if (error instanceof HttpError) setServerErrors(error.fieldErrors);
    } finally {
      setSaving(false);
    }
  };

  if (!id && programs.isSuccess)
    return (
      <Card>
        <Empty description={t('monitor.led.noPrograms')} />
      </Card>
    );
  if (!draft || !page) return <Card loading />;

  const faulty = new Set(
    [...serverErrors.map((error) => error.field), ...localProblems.map((problem) => problem.field)]
      .map(problemTarget)
      .filter((target) => target?.page === pageIndex && target.element !== undefined)
      .map((target) => page.elements[target!.element!]?.id)
      .filter((value): value is string => !!value),
  );

  return (
    <Card
      title={
        <Space wrap>
          <Select
            style={{ minWidth: 240 }}
            value={draft.id}
            data-testid="led-editor-program"
            onChange={(next) => void navigate(editProgramPath(next))}
            options={(programs.data?.list ?? []).map((row) => ({
              value: row.id,
              label: `${row.programName} (${row.programNo})`,
            }))}
          />
          <span>{t('monitor.led.resolution')}</span>
          <InputNumber
            min={16}
            max={1024}
            precision={0}
            value={draft.width}
            data-testid="led-width"
            onChange={(width) => width !== null && update((pages) => pages, { width })}
          />
          ×
          <InputNumber
            min={8}
            max={512}
            precision={0}
            value={draft.height}
            data-testid="led-height"
            onChange={(height) => height !== null && update((pages) => pages, { height })}
          />
        </Space>
      }
      extra={
        <Space>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={saving}
            disabled={!dirty}
            data-testid="led-save"
            onClick={() => void save()}
          >
            {t('monitor.led.save')}
          </Button>
          <Button
            icon={<SendOutlined />}
            disabled={dirty}
            data-testid="led-editor-send"
            onClick={() => void navigate(setProgramPath(draft.id))}
          >
            {t('monitor.led.sendProgram')}
          </Button>
        </Space>
      }
    >
      {(serverErrors.length > 0 || localProblems.length > 0) && (
        <Alert
          type={serverErrors.length ? 'error' : 'warning'}
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="led-problems"
          message={t('monitor.led.problems')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {serverErrors.map((error) => (
                <li key={`s-${error.field}`}>{error.message}</li>
              ))}
              {serverErrors.length === 0 &&
                localProblems.map((problem) => (
                  <li key={`l-${problem.field}`}>
                    {t(
                      // The checks the editor runs itself (no devices): keys of this family.
                      `monitor.led.problem.${problem.key.replace('led.', '')}` as 'monitor.led.problem.elementOutside',
                      problem.params,
                    )}
                  </li>
                ))}
            </ul>
          }
        />
      )}
      <Flex gap={16} align="flex-start" wrap>
        <div style={{ width: 200 }}>
          <Typography.Title level={5}>{t('monitor.led.pages')}</Typography.Title>
          <List
            size="small"
            dataSource={draft.pages}
            renderItem={(one, index) => (
              <List.Item
                data-testid="led-page"
                style={{
                  cursor: 'pointer',
                  background: index === pageIndex ? 'rgba(24,144,255,0.08)' : undefined,
                  display: 'block',
                }}
                onClick={() => {
                  setPageIndex(index);
                  setSelectedId(undefined);
                }}
              >
                <LedCanvas
                  page={one}
                  values={values}
                  width={draft.width}
                  height={draft.height}
                  scale={176 / draft.width}
                />
                <Flex justify="space-between" align="center" style={{ marginTop: 4 }}>
                  <Space size={4}>
                    <InputNumber
                      size="small"
                      min={LED_PAGE_SECONDS.min}
                      max={LED_PAGE_SECONDS.max}
                      precision={0}
                      value={one.durationSeconds}
                      style={{ width: 72 }}
                      aria-label={t('monitor.led.duration')}
                      onClick={(event) => event.stopPropagation()}
                      onChange={(seconds) =>
                        seconds !== null &&
                        update((pages) =>
                          pages.map((other, at) =>
                            at === index ? { ...other, durationSeconds: seconds } : other,
                          ),
                        )
                      }
                    />
                    <span>{t('monitor.led.seconds')}</span>
                  </Space>
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={draft.pages.length <= 1}
                    aria-label={t('monitor.led.deletePage')}
                    onClick={(event) => {
                      event.stopPropagation();
                      update((pages) => pages.filter((_, at) => at !== index));
                      setPageIndex(0);
                    }}
                  />
                </Flex>
              </List.Item>
            )}
          />
          <Button
            block
            icon={<PlusOutlined />}
            disabled={draft.pages.length >= LED_MAX_PAGES}
            onClick={() => {
              update((pages) => [...pages, newPage()]);
              setPageIndex(draft.pages.length);
            }}
          >
            {t('monitor.led.addPage')}
          </Button>
        </div>
        <div style={{ flex: '1 1 520px', minWidth: 0 }}>
          <Space wrap style={{ marginBottom: 8 }}>
            <Button
              icon={<FontSizeOutlined />}
              data-testid="led-add-text"
              disabled={page.elements.length >= LED_MAX_ELEMENTS}
              onClick={() => add('text')}
            >
              {t('monitor.led.addText')}
            </Button>
            <Button
              icon={<FieldNumberOutlined />}
              data-testid="led-add-live"
              disabled={page.elements.length >= LED_MAX_ELEMENTS}
              onClick={() => add('live')}
            >
              {t('monitor.led.addLive')}
            </Button>
            <Button
              icon={<PictureOutlined />}
              disabled={page.elements.length >= LED_MAX_ELEMENTS}
              onClick={() => add('image')}
            >
              {t('monitor.led.addImage')}
            </Button>
            <Typography.Text type="secondary">{t('monitor.led.background')}</Typography.Text>
            <input
              type="color"
              value={page.background}
              aria-label={t('monitor.led.background')}
              onChange={(event) =>
                updatePage((one) => ({ ...one, background: event.target.value }))
              }
            />
          </Space>
          <div style={{ overflow: 'auto' }}>
            <LedCanvas
              page={page}
              width={draft.width}
              height={draft.height}
              scale={scale}
              values={values}
              selectedId={selectedId}
              faultyIds={faulty}
              onPointerDown={startDrag}
              onCanvasPointerDown={() => setSelectedId(undefined)}
              testId="led-canvas"
            />
          </div>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('monitor.led.preview')}
          </Typography.Title>
          <LedPreview
            pages={draft.pages}
            width={draft.width}
            height={draft.height}
            scale={Math.min(2, 384 / draft.width)}
          />
        </div>
        <div style={{ width: 280 }}>
          <Typography.Title level={5}>{t('monitor.led.properties')}</Typography.Title>
          {selected ? (
            <LedElementProperties
              key={`${pageIndex}-${selected.id}`}
              element={selected}
              resolution={resolution}
              onChange={updateElement}
              onDelete={() => {
                updatePage((one) => ({
                  ...one,
                  elements: one.elements.filter((other) => other.id !== selected.id),
                }));
                setSelectedId(undefined);
              }}
            />
          ) : (
            <Typography.Text type="secondary">{t('monitor.led.pickElement')}</Typography.Text>
          )}
        </div>
      </Flex>
    </Card>
  );
}
