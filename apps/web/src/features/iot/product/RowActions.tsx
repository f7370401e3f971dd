import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
} from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

export interface RowActionsProps {
  index: number;
  /** How many rows the list has: the last one cannot move down. */
  count: number;
  onEdit: () => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}

/**
 * The buttons of one row of a thing-model list. Icons only, so each carries its name for screen
 * readers (and for tests, which find them by role and name).
 */
export function RowActions(props: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Space size={0}>
      <Button
        type="link"
        size="small"
        icon={<EditOutlined />}
        aria-label={t('iot.thingModel.edit')}
        onClick={props.onEdit}
      />
      <Button
        type="link"
        size="small"
        icon={<ArrowUpOutlined />}
        aria-label={t('iot.thingModel.moveUp')}
        disabled={props.index === 0}
        onClick={() => props.onMove(-1)}
      />
      <Button
        type="link"
        size="small"
        icon={<ArrowDownOutlined />}
        aria-label={t('iot.thingModel.moveDown')}
        disabled={props.index === props.count - 1}
        onClick={() => props.onMove(1)}
      />
      <Button
        type="link"
        size="small"
        danger
        icon={<DeleteOutlined />}
        aria-label={t('iot.thingModel.remove')}
        onClick={props.onRemove}
      />
    </Space>
  );
}
