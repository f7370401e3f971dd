import {
  CameraOutlined,
  CloseOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
} from '@ant-design/icons';
import { TOAST_MS, type CameraListItem } from '@shuili/contract';
import { Button, Flex, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { HttpError } from '../../../lib/http';
import { captureFrame } from './capture-frame';
import { playStream, type StreamProblem } from './stream-player';
import { storeSnapshot } from './video-api';
import styles from './VideoGridPage.module.css';

export interface CameraCellProps {
  index: number;
  camera: CameraListItem | undefined;
  selected: boolean;
  onSelect: () => void;
  onClear: () => void;
}

type State = 'idle' | 'loading' | 'playing' | StreamProblem;

/**
 * One cell of the live grid: the camera's stream playing muted (browsers autoplay only muted
 * video), its name and zone, and a snapshot, full-screen and clear button. An empty cell invites
 * the user to pick a camera for it from the list.
 */
export function CameraCell({ index, camera, selected, onSelect, onClear }: CameraCellProps) {
  const { t } = useTranslation();
  const cellRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<State>('idle');
  const [fullScreen, setFullScreen] = useState(false);
  const [saving, setSaving] = useState(false);
  const streamType = camera?.streamType;
  const streamUrl = camera?.streamUrl;

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !streamType || !streamUrl) {
      setState('idle');
      return;
    }
    let stopped = false;
    let player: { destroy(): void } | undefined;
    setState('loading');
    const onPlaying = () => setState('playing');
    video.addEventListener('playing', onPlaying);
    playStream(video, streamType, streamUrl, (problem) => {
      if (!stopped) setState(problem);
    }).then(
      (started) => {
        if (stopped) started.destroy();
        else player = started;
      },
      () => !stopped && setState('network'),
    );
    return () => {
      stopped = true;
      video.removeEventListener('playing', onPlaying);
      player?.destroy();
    };
  }, [streamType, streamUrl]);

  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement === cellRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else if (cellRef.current?.requestFullscreen) void cellRef.current.requestFullscreen();
    else feedback.warning(t('monitor.video.noFullScreen'), TOAST_MS.warning / 1000);
  };

  const snapshot = async () => {
    if (!camera || !videoRef.current) return;
    setSaving(true);
    try {
      const frame = await captureFrame(videoRef.current);
      // No frame the browser may read: the server fetches the camera's own still image.
      if (!frame && !camera.snapshotUrl) {
        feedback.warning(t('monitor.video.noPicture'), TOAST_MS.warning / 1000);
        return;
      }
      await storeSnapshot(camera.id, frame);
      feedback.success(
        t('monitor.video.snapshotSaved', { device: camera.deviceName ?? '' }),
        TOAST_MS.success / 1000,
      );
    } catch (error) {
      // The client has shown the server's reason already.
      if (!(error instanceof HttpError)) throw error;
    } finally {
      setSaving(false);
    }
  };

  return (
    <div
      ref={cellRef}
      className={`${styles.cell} ${selected ? styles.selected : ''}`}
      onClick={onSelect}
      data-testid="video-cell"
      data-cell={index}
      data-camera={camera?.id ?? ''}
      data-state={state}
    >
      <video ref={videoRef} className={styles.video} muted autoPlay playsInline loop />
      {camera ? (
        <>
          <Flex className={styles.bar} justify="space-between" align="center" gap={4}>
            <Typography.Text className={styles.title} ellipsis>
              {camera.cameraName}
              {camera.zoneName ? ` · ${camera.zoneName}` : ''}
            </Typography.Text>
            <Flex gap={2} onClick={(event) => event.stopPropagation()}>
              <CellTool
                title={
                  camera.deviceId
                    ? t('monitor.video.snapshot')
                    : t('monitor.video.snapshotNoDevice')
                }
                icon={<CameraOutlined />}
                loading={saving}
                disabled={!camera.deviceId || state !== 'playing'}
                onClick={() => void snapshot()}
                testId="video-snapshot"
              />
              <CellTool
                title={
                  fullScreen ? t('monitor.video.exitFullScreen') : t('monitor.video.fullScreen')
                }
                icon={fullScreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
                onClick={toggleFullScreen}
                testId="video-fullscreen"
              />
              <CellTool
                title={t('monitor.video.clear')}
                icon={<CloseOutlined />}
                onClick={onClear}
              />
            </Flex>
          </Flex>
          {state !== 'playing' && (
            <div className={styles.message}>{t(`monitor.video.state.${state}`)}</div>
          )}
        </>
      ) : (
        <div className={styles.message}>{t('monitor.video.empty')}</div>
      )}
    </div>
  );
}

/**
 * A button of a cell's bar: an icon, its tooltip naming what it does. The bar is the cell's top
 * edge, so the tooltip opens below it, over the cell's own picture: above, it covered the row of
 * cells above or the grid's layout switch, and a pointer that went on to the switch landed on the
 * tooltip, which hovering keeps open.
 */
function CellTool({
  title,
  testId,
  ...button
}: {
  title: string;
  icon: ReactNode;
  onClick: () => void;
  loading?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <Tooltip title={title} placement="bottom">
      <Button
        size="small"
        type="text"
        className={styles.tool}
        aria-label={title}
        data-testid={testId}
        {...button}
      />
    </Tooltip>
  );
}
