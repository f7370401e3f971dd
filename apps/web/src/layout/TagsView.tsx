import { CloseOutlined } from '@ant-design/icons';
import { CONTEXT_MENU_WIDTH_PX, TAG_SCROLL_PADDING_PX } from '@shuili/contract';
import { theme } from 'antd';
import type { ParseKeys } from 'i18next';
import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { REDIRECT_PREFIX } from '../core/open-paths';
import { HOME_PATH } from '../core/open-paths';
import { afterClosing, NO_NAME, tagsView, useTagsViewStore, type TagView } from './tags-view-store';
import styles from './TagsView.module.css';

interface ContextMenu {
  view: TagView;
  left: number;
  top: number;
}

/**
 * Spec §2 tags view: a tab per visited screen (affixed ones cannot be closed), a context menu
 * with refresh, close, close others and close all, and the spec's rules for where closing the
 * active tab leads.
 */
export function TagsView({ currentPath }: { currentPath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const visited = useTagsViewStore((state) => state.visitedViews);
  const [menu, setMenu] = useState<ContextMenu>();
  const scroller = useRef<HTMLDivElement>(null);
  // More tabs than fit: arrows either side scroll them (a wheel or a swipe does too).
  const [overflowing, setOverflowing] = useState(false);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => setOverflowing(box.scrollWidth > box.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [visited, t]);
  const scrollBy = (direction: 1 | -1) =>
    scroller.current?.scrollBy({
      left: direction * scroller.current.clientWidth * 0.8,
      behavior: 'smooth',
    });
  const arrow = (direction: 1 | -1) =>
    overflowing && (
      <button
        type="button"
        className={styles.arrow}
        aria-label={t(direction < 0 ? 'tagsView.scrollLeft' : 'tagsView.scrollRight')}
        data-testid={direction < 0 ? 'tags-scroll-left' : 'tags-scroll-right'}
        onClick={() => scrollBy(direction)}
      >
        {direction < 0 ? '‹' : '›'}
      </button>
    );

  const toLastView = (view: TagView) => {
    const { to, refresh } = afterClosing(useTagsViewStore.getState().visitedViews, view, HOME_PATH);
    void navigate(refresh ? `${REDIRECT_PREFIX}${to}` : to, { replace: refresh });
  };

  const refresh = (view: TagView) => {
    // Out of the cache, so the screen mounts afresh on the way back from /redirect.
    tagsView.delCached(view);
    void navigate(`${REDIRECT_PREFIX}${view.fullPath}`, { replace: true });
  };

  const close = (view: TagView) => {
    if (view.meta.affix) return;
    tagsView.del(view);
    if (view.path === currentPath) toLastView(view);
  };

  const closeOthers = (view: TagView) => {
    if (view.path !== currentPath) void navigate(view.fullPath);
    tagsView.delOthers(view);
  };

  const closeAll = (view: TagView) => {
    tagsView.delAll();
    const left = useTagsViewStore.getState().visitedViews;
    if (!left.some((v) => v.path === currentPath)) toLastView(view);
  };

  // The context menu closes on the next click anywhere, on scrolling and on Escape.
  useEffect(() => {
    if (!menu) return;
    const hide = () => setMenu(undefined);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') hide();
    };
    document.addEventListener('click', hide);
    document.addEventListener('scroll', hide, true);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('click', hide);
      document.removeEventListener('scroll', hide, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [menu]);

  // Keep the active tab in sight, with the spec's padding.
  useLayoutEffect(() => {
    const box = scroller.current;
    const tag = box?.querySelector<HTMLElement>('[data-active="true"]');
    if (!box || !tag) return;
    if (tag.offsetLeft < box.scrollLeft + TAG_SCROLL_PADDING_PX) {
      box.scrollLeft = tag.offsetLeft - TAG_SCROLL_PADDING_PX;
    } else if (tag.offsetLeft + tag.offsetWidth > box.scrollLeft + box.clientWidth) {
      box.scrollLeft = tag.offsetLeft + tag.offsetWidth - box.clientWidth + TAG_SCROLL_PADDING_PX;
    }
  }, [currentPath, visited]);

  const openMenu = (event: MouseEvent, view: TagView) => {
    event.preventDefault();
    setMenu({
      view,
      left: Math.min(event.clientX + 15, window.innerWidth - CONTEXT_MENU_WIDTH_PX),
      top: event.clientY,
    });
  };

  const menuItems = menu
    ? [
        { key: 'refresh', label: t('tagsView.refresh'), run: refresh },
        ...(menu.view.meta.affix ? [] : [{ key: 'close', label: t('tagsView.close'), run: close }]),
        { key: 'closeOthers', label: t('tagsView.closeOthers'), run: closeOthers },
        { key: 'closeAll', label: t('tagsView.closeAll'), run: closeAll },
      ]
    : [];

  return (
    <div className={styles.bar} data-testid="tags-view">
      {arrow(-1)}
      <div
        ref={scroller}
        className={styles.scroller}
        onWheel={(event) => {
          if (scroller.current) scroller.current.scrollLeft += event.deltaY || event.deltaX;
        }}
      >
        {visited.map((view) => {
          const active = view.path === currentPath;
          const title = view.title === NO_NAME ? t('tagsView.noName') : t(view.title as ParseKeys);
          return (
            <Link
              key={view.path}
              to={view.fullPath}
              className={styles.tag}
              style={
                active
                  ? {
                      background: token.colorPrimary,
                      borderColor: token.colorPrimary,
                      color: '#fff',
                    }
                  : undefined
              }
              data-active={active}
              data-testid="tag"
              data-path={view.path}
              onContextMenu={(event) => openMenu(event, view)}
              onAuxClick={(event) => {
                // A middle click closes, as in browsers.
                if (event.button === 1) close(view);
              }}
              onKeyDown={(event) => {
                // Keyboard users close a focused tab with Delete.
                if (event.key === 'Delete') close(view);
              }}
            >
              {active && <span className={styles.dot} />}
              {title}
              {!view.meta.affix && (
                <span
                  role="button"
                  tabIndex={-1}
                  aria-label={t('tagsView.close')}
                  className={styles.close}
                  data-testid="tag-close"
                  onClick={(event) => {
                    event.preventDefault();
                    event.stopPropagation();
                    close(view);
                  }}
                >
                  <CloseOutlined />
                </span>
              )}
            </Link>
          );
        })}
      </div>
      {arrow(1)}
      {menu && (
        <ul
          role="menu"
          className={styles.contextMenu}
          style={{ left: menu.left, top: menu.top, width: CONTEXT_MENU_WIDTH_PX }}
          data-testid="tags-context-menu"
        >
          {menuItems.map((item) => (
            <li
              key={item.key}
              role="menuitem"
              tabIndex={-1}
              data-testid={`tags-menu-${item.key}`}
              onClick={() => item.run(menu.view)}
            >
              {item.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
