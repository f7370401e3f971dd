import {
  CheckCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  ReloadOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { entityButtons, TOAST_MS, type EntityDef, type FieldDef } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Modal,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  type ButtonProps,
  type TableColumnsType,
  type TableProps,
} from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Permitted } from '../core/Permitted';
import { usePermission } from '../core/permission';
import { useSessionStore } from '../core/session-store';
import { useLocaleStore } from '../i18n/i18n';
import { RouteIcon } from '../layout/RouteIcon';
import { feedback } from '../lib/feedback';
import { cellList, cellText } from './cell-text';
import { loadHiddenColumns, saveHiddenColumns } from './column-store';
import { ColumnSettings } from './ColumnSettings';
import {
  absentColumns,
  columnSpecsOf,
  defaultHidden,
  visibleColumns,
  type ColumnSpec,
} from './columns';
import {
  EntityFormDialog,
  type EntityFormDialogProps,
  type FormExtraContext,
} from './EntityFormDialog';
import { ExportButton } from './ExportButton';
import { useLabel } from './field-label';
import type { FormMode, LabeledValue } from './form-values';
import { rowKeyOf, type ResourceRow } from './resource-row';
import { ResourceSearchForm } from './ResourceSearchForm';
import {
  hasFilters,
  pageParamsOf,
  searchParamsOf,
  type FixedFilters,
  type PageState,
} from './search-params';
import { useTranslate } from './use-field-rules';
import {
  resourceKey,
  useDict,
  useResourceMutations,
  useResourcePage,
  useResourceTree,
} from './use-resource';
import styles from './ResourcePage.module.css';

const PAGE_SIZES = [10, 20, 50, 100];
const NO_FILTERS: FixedFilters = {};

/** Renders one cell of a column in place of the generic rendering. */
export type CellRenderer = (value: unknown, row: ResourceRow) => ReactNode;

/** The generic list screen of an entity, and what a special screen may add to it. */
export interface ResourcePageProps {
  entity: EntityDef;
  /** The card's title; the entity's title by default. */
  title?: ReactNode;
  /** Filters the screen fixes (menuId of a menu's buttons): not in the search form nor the
   * columns, always sent, and set on records created here. */
  fixedFilters?: FixedFilters;
  /** More actions at the end of each row's action cell. */
  rowActions?: (row: ResourceRow) => ReactNode;
  /** More buttons in the toolbar, after the generic ones (given the checked rows and a way to
   * uncheck them, for actions on the rows the user checked). */
  toolbarExtra?: ReactNode | ((selected: ResourceRow[], clearSelection: () => void) => ReactNode);
  /** More content in the create/edit form, under the declared fields. */
  formExtra?: (context: FormExtraContext) => ReactNode;
  /** The form's controls of named fields, in place of the generic ones. */
  fieldControls?: EntityFormDialogProps['fieldControls'];
  /** Form fields that do not apply to the values as they stand. */
  hiddenFields?: EntityFormDialogProps['hiddenFields'];
  /** Cells of named columns rendered by the screen instead. */
  cellRenderers?: Readonly<Record<string, CellRenderer>>;
  /** After any write (add, edit, delete, status). */
  onRowsChanged?: () => void;
  /** After a successful add or edit, with the server's answer. */
  onSaved?: (result: unknown, mode: FormMode) => void;
  /** A row was clicked (a master list choosing its detail). */
  onRowClick?: (row: ResourceRow) => void;
  /**
   * Each row is a link to this page: its first cell is a real link (Ctrl/Cmd-click or a middle
   * click opens a new tab), and a click anywhere on the row opens the page in place.
   */
  rowHref?: (row: ResourceRow) => string;
  /** The row shown as chosen. */
  activeRowId?: string;
}

interface DialogState {
  mode: FormMode;
  row?: ResourceRow;
  preset?: Record<string, unknown>;
}

interface Expanded {
  /** The table's row key (id). */
  id: string;
  /** The key the tree call takes as parentId. */
  key: string;
}

type TreeRow = ResourceRow & { children?: TreeRow[] };

function sameMembers(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''), undefined, { numeric: true });
}

function DictCell({ field, value }: { field: FieldDef; value: unknown }) {
  const dict = useDict(field.dictType);
  if (value === undefined || value === null || value === '') return null;
  const entry = dict.data?.find((item) => item.dictValue === String(value));
  return <>{entry?.dictName ?? String(value)}</>;
}

/**
 * DESIGN §3: an entity's screen from its declaration: search form, paged and sorted table (a
 * lazily loaded tree for tree entities), create/edit dialog, batch delete, enable/disable,
 * exports and column settings, every button behind its menu-button permission.
 */
export function ResourcePage({
  entity,
  title,
  fixedFilters = NO_FILTERS,
  rowActions,
  toolbarExtra,
  formExtra,
  fieldControls,
  hiddenFields,
  cellRenderers,
  onRowsChanged,
  onSaved,
  onRowClick,
  rowHref,
  activeRowId,
}: ResourcePageProps) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const translate = useTranslate();
  const label = useLabel();
  const lang = useLocaleStore((state) => state.lang);
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const buttons = entityButtons(entity);
  // Shared reference data (regions) is read by every tenant but written by the platform only.
  const platform = useSessionStore((state) => state.user?.platform ?? false);
  const ops =
    entity.scope === 'shared' && !platform
      ? { ...entity.operations, add: false, update: false, delete: false, status: false }
      : entity.operations;
  const mayEdit = usePermission(buttons.edit) && ops.update;
  const mayDelete = usePermission(buttons.delete) && ops.delete;
  const mayToggle = usePermission(buttons.status) && ops.status;
  const mayAdd = usePermission(buttons.add) && ops.add;
  const mutations = useResourceMutations(entity);

  const [searchValues, setSearchValues] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState<PageState>({ currentPage: 1, pageSize: PAGE_SIZES[0]! });
  const [selected, setSelected] = useState<ResourceRow[]>([]);
  const [expanded, setExpanded] = useState<Expanded[]>([]);
  const [dialog, setDialog] = useState<DialogState | undefined>();
  const [togglingId, setTogglingId] = useState<string | undefined>();

  const specs = useMemo(() => columnSpecsOf(entity, fixedFilters), [entity, fixedFilters]);
  const [hidden, setHidden] = useState<Set<string>>(
    () => loadHiddenColumns(entity) ?? defaultHidden(specs),
  );

  const filters = useMemo(
    () => searchParamsOf(entity, searchValues, fixedFilters),
    [entity, searchValues, fixedFilters],
  );
  const treeMode = !!entity.tree && !hasFilters(filters);
  const pageParams = { ...filters, ...pageParamsOf(page) };
  const flat = useResourcePage(entity, pageParams, !treeMode);
  const tree = useResourceTree(
    entity,
    expanded.map((node) => node.key),
    treeMode,
  );

  const rows: TreeRow[] = useMemo(() => {
    if (!treeMode) return flat.data?.list ?? [];
    const attach = (row: ResourceRow): TreeRow =>
      row.hasChildren
        ? { ...row, children: (tree.children.get(rowKeyOf(entity, row)) ?? []).map(attach) }
        : row;
    return (tree.roots.data ?? []).map(attach);
  }, [treeMode, flat.data, tree.roots.data, tree.children, entity]);

  // Fields the caller's data permissions hide, as the last rows told (an empty page tells
  // nothing, so the columns stay as they were).
  const [absent, setAbsent] = useState<ReadonlySet<string>>(() => new Set());
  const told = useMemo(
    () => (rows.length > 0 ? absentColumns(specs, rows) : undefined),
    [specs, rows],
  );
  if (told && !sameMembers(told, absent)) setAbsent(told);
  const present = specs.filter((spec) => !absent.has(spec.name));
  const shown = visibleColumns(specs, absent, hidden);

  // Toolbar buttons that act on checked rows wait for them, and say why while they wait.
  const needs = (ready: boolean, key: 'resource.selectOne' | 'resource.selectAtLeastOne') =>
    ready ? {} : { disabled: true, title: t(key) };
  const one = needs(selected.length === 1, 'resource.selectOne');
  const some = needs(selected.length > 0, 'resource.selectAtLeastOne');

  const changed = () => {
    setSelected([]);
    onRowsChanged?.();
  };

  const refresh = () => void queryClient.invalidateQueries({ queryKey: resourceKey(entity) });

  const openEdit = (row: ResourceRow) => setDialog({ mode: 'edit', row });

  const addChild = (row: ResourceRow) => {
    const parent = entity.tree!.parent;
    const field = entity.fields[parent];
    const key = rowKeyOf(entity, row);
    const title = String(row[entity.tree!.title] ?? key);
    const value: LabeledValue | string =
      field?.kind === 'ref' || field?.kind === 'tree-ref' ? { value: key, label: title } : key;
    setDialog({ mode: 'create', preset: { [parent]: value } });
  };

  const confirmDelete = (targets: ResourceRow[]) => {
    void modal.confirm({
      title: t('resource.deleteTitle'),
      content: t('resource.deleteConfirm', { count: targets.length }),
      okText: t('resource.delete'),
      okButtonProps: { danger: true, 'data-testid': 'resource-delete-confirm' } as ButtonProps,
      cancelText: t('resource.cancel'),
      onOk: async () => {
        try {
          await mutations.remove.mutateAsync(targets.map((row) => rowKeyOf(entity, row)));
        } catch {
          // The http client said why (a parent with children, a record in use); nothing changed.
          return;
        }
        feedback.success(t('resource.deleted', { count: targets.length }), TOAST_MS.success / 1000);
        changed();
      },
    });
  };

  const setStatus = async (targets: ResourceRow[], status: 0 | 1) => {
    await mutations.setStatus.mutateAsync({ ids: targets.map((row) => row.id), status });
    feedback.success(t('resource.statusChanged'), TOAST_MS.success / 1000);
    changed();
  };

  const toggleRow = async (row: ResourceRow, checked: boolean) => {
    setTogglingId(row.id);
    try {
      await setStatus([row], checked ? 1 : 0);
    } catch {
      // The http client reported it; the switch stays as the server has it.
    } finally {
      setTogglingId(undefined);
    }
  };

  const titleOf = (spec: ColumnSpec) =>
    spec.label
      ? label(spec.label)
      : t(spec.name === 'createdAt' ? 'resource.createdAt' : 'resource.updatedAt');

  const renderCell = (spec: ColumnSpec, row: ResourceRow): ReactNode => {
    const value = row[spec.name];
    const custom = cellRenderers?.[spec.name];
    if (custom) return custom(value, row);
    const field = spec.field;
    if (field?.kind === 'status') {
      const enabled = Number(value) === 1;
      if (mayToggle) {
        return (
          <Switch
            size="small"
            checked={enabled}
            loading={togglingId === row.id}
            aria-label={label(field.label)}
            data-testid="resource-status-switch"
            onClick={(checked, event) => {
              event.stopPropagation();
              void toggleRow(row, checked);
            }}
          />
        );
      }
      return value === undefined || value === null ? null : (
        <Tag color={enabled ? 'success' : 'default'}>
          {t(enabled ? 'resource.enabled' : 'resource.disabled')}
        </Tag>
      );
    }
    if (field?.kind === 'dict') return <DictCell field={field} value={value} />;
    if (field?.kind === 'icon' && typeof value === 'string' && value) {
      return (
        <Space size={4}>
          <RouteIcon name={value} />
          {value}
        </Space>
      );
    }
    if (field?.kind === 'tags' || field?.link) {
      return cellList(spec.name, field, row, { lang }).map((item, index) => (
        <Tag key={`${item}-${index}`}>{item}</Tag>
      ));
    }
    return cellText(spec.name, field, row, { lang, t: translate });
  };

  const columns: TableColumnsType<TreeRow> = shown.map((spec, index) => ({
    key: spec.name,
    dataIndex: spec.name,
    title: titleOf(spec),
    width: spec.width,
    ellipsis: spec.field?.kind === 'textarea' || spec.field?.kind === 'richtext',
    sorter: spec.sortable
      ? treeMode
        ? (a: TreeRow, b: TreeRow) => compareValues(a[spec.name], b[spec.name])
        : true
      : undefined,
    sortOrder: treeMode ? undefined : page.sort === spec.name ? (page.order ?? null) : null,
    render: (_: unknown, row: TreeRow) =>
      rowHref && index === 0 ? (
        // The row's own click handler must not open the page a second time (or in this tab
        // when the browser opens it in another).
        <Link to={rowHref(row)} onClick={(event) => event.stopPropagation()} data-testid="row-link">
          {renderCell(spec, row)}
        </Link>
      ) : (
        renderCell(spec, row)
      ),
  }));

  const hasRowActions = mayEdit || mayDelete || (entity.tree && mayAdd) || !!rowActions;
  if (hasRowActions) {
    columns.push({
      key: 'actions',
      title: t('resource.actions'),
      fixed: 'right',
      render: (_: unknown, row: TreeRow) => (
        <Space size={0} wrap onClick={(event) => event.stopPropagation()}>
          {mayEdit && (
            <Button type="link" size="small" onClick={() => openEdit(row)} data-testid="row-edit">
              {t('resource.edit')}
            </Button>
          )}
          {entity.tree && mayAdd && (
            <Button
              type="link"
              size="small"
              onClick={() => addChild(row)}
              data-testid="row-add-child"
            >
              {t('resource.addChild')}
            </Button>
          )}
          {mayDelete && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => confirmDelete([row])}
              data-testid="row-delete"
            >
              {t('resource.delete')}
            </Button>
          )}
          {rowActions?.(row)}
        </Space>
      ),
    });
  }

  const onTableChange: TableProps<TreeRow>['onChange'] = (pagination, _filters, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const order = (one?.order ?? undefined) as Exclude<SortOrder, null> | undefined;
    const sort = order ? String(one?.columnKey ?? one?.field) : undefined;
    const pageSize = pagination.pageSize ?? page.pageSize;
    const resort = sort !== page.sort || order !== page.order;
    setPage({
      currentPage: pageSize !== page.pageSize || resort ? 1 : (pagination.current ?? 1),
      pageSize,
      sort,
      order,
    });
  };

  const loading = treeMode ? tree.roots.isFetching || tree.loadingChildren : flat.isFetching;

  return (
    <Card
      title={title ?? label(entity.title)}
      data-testid="resource-page"
      data-entity={entity.name}
    >
      {modalHolder}
      <ResourceSearchForm
        entity={entity}
        fixedFilters={fixedFilters}
        hiddenFields={absent}
        onSearch={(values) => {
          setSearchValues(values);
          setPage((current) => ({ ...current, currentPage: 1 }));
        }}
      />
      <div className={styles.toolbar}>
        <Space wrap>
          {ops.add && (
            <Permitted code={buttons.add}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ mode: 'create' })}
                data-testid="resource-add"
              >
                {t('resource.add')}
              </Button>
            </Permitted>
          )}
          {ops.update && (
            <Permitted code={buttons.edit}>
              <Button
                icon={<EditOutlined />}
                {...one}
                onClick={() => openEdit(selected[0]!)}
                data-testid="resource-edit"
              >
                {t('resource.edit')}
              </Button>
            </Permitted>
          )}
          {ops.delete && (
            <Permitted code={buttons.delete}>
              <Button
                danger
                icon={<DeleteOutlined />}
                {...some}
                onClick={() => confirmDelete(selected)}
                data-testid="resource-delete"
              >
                {t('resource.delete')}
              </Button>
            </Permitted>
          )}
          {ops.status && (
            <Permitted code={buttons.status}>
              <Button
                icon={<CheckCircleOutlined />}
                {...some}
                onClick={() => void setStatus(selected, 1).catch(() => undefined)}
                data-testid="resource-enable"
              >
                {t('resource.enable')}
              </Button>
            </Permitted>
          )}
          {/* Each button its own toolbar item, so the toolbar's gap separates them. */}
          {ops.status && (
            <Permitted code={buttons.status}>
              <Button
                icon={<StopOutlined />}
                {...some}
                onClick={() => void setStatus(selected, 0).catch(() => undefined)}
                data-testid="resource-disable"
              >
                {t('resource.disable')}
              </Button>
            </Permitted>
          )}
          {ops.export && (
            <Permitted code={buttons.export}>
              <ExportButton
                entity={entity}
                params={{ ...filters, sort: pageParams.sort, order: pageParams.order }}
              />
            </Permitted>
          )}
          {typeof toolbarExtra === 'function'
            ? toolbarExtra(selected, () => setSelected([]))
            : toolbarExtra}
        </Space>
        <Space>
          {selected.length > 0 && (
            <span className={styles.selection}>
              {t('resource.selected', { count: selected.length })}
            </span>
          )}
          <Tooltip title={t('resource.refresh')}>
            <Button
              icon={<ReloadOutlined />}
              aria-label={t('resource.refresh')}
              onClick={refresh}
              data-testid="resource-refresh"
            />
          </Tooltip>
          <ColumnSettings
            columns={present}
            hidden={hidden}
            titleOf={titleOf}
            onChange={(next) => {
              setHidden(next);
              saveHiddenColumns(entity, next);
            }}
          />
        </Space>
      </div>
      <Table<TreeRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={loading}
        scroll={{ x: 'max-content' }}
        data-testid="resource-table"
        onChange={onTableChange}
        rowSelection={{
          selectedRowKeys: selected.map((row) => row.id),
          preserveSelectedRowKeys: true,
          checkStrictly: true,
          onChange: (_keys, chosen) => setSelected(chosen.filter(Boolean)),
        }}
        expandable={
          treeMode
            ? {
                expandedRowKeys: expanded.map((node) => node.id),
                onExpand: (open, row) =>
                  setExpanded((current) =>
                    open
                      ? [...current, { id: row.id, key: rowKeyOf(entity, row) }]
                      : current.filter((node) => node.id !== row.id),
                  ),
              }
            : undefined
        }
        onRow={(row) => ({
          onClick:
            onRowClick || rowHref
              ? (event) => {
                  // Ticking a row's box selects it; it does not choose it, nor do its buttons.
                  const target = event.target as HTMLElement;
                  if (
                    target.closest(
                      '.ant-table-selection-column, .ant-table-row-expand-icon, button, a, .ant-switch',
                    )
                  )
                    return;
                  if (!rowHref) {
                    onRowClick?.(row);
                    return;
                  }
                  // The keys a link obeys, on the rest of the row too.
                  if (event.ctrlKey || event.metaKey || event.shiftKey)
                    window.open(rowHref(row), '_blank', 'noopener');
                  else void navigate(rowHref(row));
                }
              : undefined,
          onAuxClick: rowHref
            ? (event) => {
                const target = event.target as HTMLElement;
                if (event.button === 1 && !target.closest('a'))
                  window.open(rowHref(row), '_blank', 'noopener');
              }
            : undefined,
          className:
            [row.id === activeRowId && styles.activeRow, rowHref && styles.linkRow]
              .filter(Boolean)
              .join(' ') || undefined,
        })}
        pagination={{
          ...(treeMode
            ? { pageSize: page.pageSize }
            : {
                current: page.currentPage,
                pageSize: page.pageSize,
                total: flat.data?.total ?? 0,
              }),
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => t('resource.total', { total }),
        }}
      />
      <EntityFormDialog
        entity={entity}
        mode={dialog?.mode}
        row={dialog?.row}
        preset={dialog?.preset}
        fixedFilters={fixedFilters}
        formExtra={formExtra}
        fieldControls={fieldControls}
        hiddenFields={hiddenFields}
        onClose={() => setDialog(undefined)}
        onSaved={(result, mode) => {
          changed();
          onSaved?.(result, mode);
        }}
      />
    </Card>
  );
}
