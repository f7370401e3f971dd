import { sysPostEntity, sysUserPostEntity } from '@shuili/contract';
import { useTranslation } from 'react-i18next';
import { TreeWithDetail } from './TreeWithDetail';

/** Spec §2 /admin/syspost: the post tree and, for the chosen post, the users holding it. */
export function SysPostPage() {
  const { t } = useTranslation();
  return (
    <TreeWithDetail
      master={sysPostEntity}
      detail={sysUserPostEntity}
      detailField="postId"
      detailTitle={(row) => t('resource.post.holders', { post: String(row.postName ?? '') })}
      emptyText={t('resource.post.choose')}
      chooseLabel={t('resource.post.showHolders')}
    />
  );
}
