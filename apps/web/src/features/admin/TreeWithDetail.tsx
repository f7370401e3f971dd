import type { EntityDef } from '@shuili/contract';
import { Button, Card, Empty } from 'antd';
import { useState, type ReactNode } from 'react';
import type { ResourceRow } from '../../resource/resource-row';
import { ResourcePage, type CellRenderer } from '../../resource/ResourcePage';
import styles from './TreeWithDetail.module.css';

export interface TreeWithDetailProps {
  /** The tree on top (menus, posts). */
  master: EntityDef;
  /** The records of the chosen node (its buttons, its holders). */
  detail: EntityDef;
  /** The detail's field naming the chosen node (menuId, postId). */
  detailField: string;
  /** The detail card's title for the chosen node. */
  detailTitle: (row: ResourceRow) => ReactNode;
  /** What the detail card says before a node is chosen. */
  emptyText: string;
  /** The row action that chooses a node. */
  chooseLabel: string;
  masterCells?: Readonly<Record<string, CellRenderer>>;
}

/**
 * A tree entity's screen with the records of the chosen node under it, both generic resource
 * screens: the detail's filter fixes the node, and records added there belong to it.
 */
export function TreeWithDetail({
  master,
  detail,
  detailField,
  detailTitle,
  emptyText,
  chooseLabel,
  masterCells,
}: TreeWithDetailProps) {
  const [chosen, setChosen] = useState<ResourceRow | undefined>();
  return (
    <div className={styles.stack}>
      <ResourcePage
        entity={master}
        cellRenderers={masterCells}
        onRowClick={setChosen}
        activeRowId={chosen?.id}
        onRowsChanged={() => setChosen(undefined)}
        rowActions={(row) => (
          <Button type="link" size="small" onClick={() => setChosen(row)} data-testid="row-choose">
            {chooseLabel}
          </Button>
        )}
      />
      {chosen ? (
        <ResourcePage
          // A fresh list (filters, page, selection) for every node chosen.
          key={chosen.id}
          entity={detail}
          title={detailTitle(chosen)}
          fixedFilters={{ [detailField]: chosen.id }}
        />
      ) : (
        <Card>
          <Empty description={emptyText} />
        </Card>
      )}
    </div>
  );
}
