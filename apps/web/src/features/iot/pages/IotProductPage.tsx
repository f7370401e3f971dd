import { iotProductEntity, iotProductThingModelRoute } from '@shuili/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { ResourceRow } from '../../../resource/resource-row';

/** Spec /IOTproductList: products; each opens its thing model on /IOTproductShowEdit/{serialNo}. */
export function IotProductPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ResourcePage
      entity={iotProductEntity}
      rowActions={(row: ResourceRow) => (
        <Button
          type="link"
          size="small"
          data-testid="thing-model-link"
          onClick={() => void navigate(iotProductThingModelRoute(String(row.serialNo)))}
        >
          {t('iot.pages.thingModel')}
        </Button>
      )}
    />
  );
}
