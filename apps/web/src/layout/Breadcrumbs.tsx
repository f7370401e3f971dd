import { Breadcrumb } from 'antd';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RouteLink } from '../core/generate-routes';

/**
 * Spec §2 breadcrumb: the titled routes from the top group down to the current screen, except
 * those with meta.breadcrumb false; groups link to where they redirect.
 */
export function Breadcrumbs({ trail }: { trail: readonly RouteLink[] }) {
  const { t } = useTranslation();
  const links = trail.filter(
    (link) => link.route.meta?.title && link.route.meta.breadcrumb !== false,
  );
  return (
    <Breadcrumb
      data-testid="breadcrumb"
      items={links.map((link, i) => {
        const title = t(link.route.meta!.title as ParseKeys);
        const to = link.route.redirect ?? (link.route.page ? link.path : undefined);
        const last = i === links.length - 1;
        return { key: link.path, title: last || !to ? title : <Link to={to}>{title}</Link> };
      })}
    />
  );
}
