import { defineEntity, f, label } from '../../entity-kit';
import { ZONE_TARGET } from '../admin/targets';
import { locationFields } from '../iot/location-fields';
import { DEVICE_TARGET } from '../iot/targets';

/** How a camera's live stream is delivered, and so which player the grid uses. */
export const CAMERA_STREAM_TYPES = [
  { value: 'hls', label: label('HLS (.m3u8)', 'HLS (.m3u8)', 'HLS (.m3u8)') },
  { value: 'flv', label: label('HTTP-FLV', 'HTTP-FLV', 'HTTP-FLV') },
] as const;
export type CameraStreamType = (typeof CAMERA_STREAM_TYPES)[number]['value'];

/**
 * A stream or snapshot address: http(s) anywhere, or a path on this server (the demo's clip,
 * a reverse-proxied NVR). Nothing else (javascript:, file:, rtsp: the browser cannot play).
 */
export const CAMERA_URL_PATTERN = '^(https?://[^\\s/?#]+[^\\s]*|/|/[^/\\s][^\\s]*)$';
const url = { source: CAMERA_URL_PATTERN, key: 'validation.cameraUrl' };

/** Where cameras are managed (spec §2 /videoManagement) and their calls (spec §7). */
export const VIDEO_MANAGEMENT_ROUTE = '/videoManagement';
export const VIDEO_CAMERA_PATH = '/api/video/camera';

/**
 * A camera (spec §3 "camera", fields not shown: DOMAINS.md "Video"): where it is (zone, map
 * position), the live stream the grid plays (HLS or HTTP-FLV), a still image address the server
 * may fetch when the stream's pixels cannot be read, and the IoT camera device (CAM-PTZ) whose
 * images receive its snapshots. Row-level security confines a user with zones to the cameras of
 * those zones (tenancy.sql `video_camera_zone_scope`).
 */
export const cameraEntity = defineEntity({
  name: 'Camera',
  title: label('Cameras', '摄像头', '攝影機'),
  table: 'video_camera',
  path: VIDEO_CAMERA_PATH,
  route: VIDEO_MANAGEMENT_ROUTE,
  menuCode: 'videoManagement',
  scope: 'tenant',
  defaultSort: { field: 'cameraName', order: 'ascend' },
  fields: {
    cameraName: f.text({
      label: label('Camera', '摄像头名称', '攝影機名稱'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    zoneId: f.ref({
      label: label('Zone', '所属区域', '所屬區域'),
      required: true,
      target: ZONE_TARGET,
    }),
    // Not `device_id`: that column name would put the rows under the device policy, which hides
    // a camera without a device from every user confined to zones (tenancy.sql).
    deviceId: f.ref({
      label: label('Camera device', '摄像机设备', '攝影機設備'),
      target: DEVICE_TARGET,
      column: 'camera_device_id',
      onDelete: 'set-null',
    }),
    streamType: f.enumOf({
      label: label('Stream type', '视频流类型', '視訊串流類型'),
      required: true,
      options: CAMERA_STREAM_TYPES,
      defaultValue: 'hls',
    }),
    streamUrl: f.text({
      label: label('Stream URL', '视频流地址', '視訊串流位址'),
      required: true,
      max: 1000,
      pattern: url,
      list: false,
    }),
    snapshotUrl: f.text({
      label: label('Snapshot URL', '抓图地址', '抓圖位址'),
      max: 1000,
      pattern: url,
      list: false,
      search: undefined,
    }),
    ...locationFields(),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});
