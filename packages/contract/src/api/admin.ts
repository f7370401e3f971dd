import { z } from 'zod';
import { idSchema } from '../entity-kit/schemas';
import { withSingularNames } from '../entity-kit/singular';
import { v } from '../validation';

const ids = (max = 5000) => z.array(idSchema).max(max);

/** Grants written as whole lists: the list replaces what the role (or user, URL) held. */
export const roleGrantSchemas = {
  /** Spec §3 names one role: `roleId` stands for `roleIds: [roleId]`, as on the user itself. */
  authorizeRoleToUser: withSingularNames(
    { userId: idSchema, roleIds: ids(200).min(1, { error: 'validation.required' }) },
    [{ list: 'roleIds', singular: 'roleId', element: idSchema, required: true }],
  ),
  authorizeUserToRole: z.strictObject({ roleId: idSchema, userIds: ids(100_000) }),
  authorizeMenuToRole: z.strictObject({ roleId: idSchema, menuIds: ids() }),
  /** With menuId only that menu's buttons are replaced; without, all of the role's buttons. */
  authorizeMenuButtonToRole: z.strictObject({
    roleId: idSchema,
    buttonIds: ids(),
    menuId: idSchema.optional(),
  }),
  authorizeUrlToRole: z.strictObject({ roleId: idSchema, urlIds: ids() }),
  authorizeRoleToUrl: z.strictObject({ urlId: idSchema, roleIds: ids(500) }),
  authorizeMenuDataToRole: z.strictObject({
    roleCode: z.string().trim().min(1).max(64),
    menuCode: z.string().trim().min(1).max(64),
    dataFields: z.string().trim().min(1).max(2000),
  }),
  resetPassword: z.strictObject({ id: idSchema, password: v.password() }),
  resetSecondFactor: z.strictObject({ id: idSchema }),
  assignZone: z.object({
    userId: idSchema,
    zoneIds: z
      .union([z.string(), z.array(z.string())])
      .transform((value) =>
        (Array.isArray(value) ? value : value.split(',')).map((id) => id.trim()).filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' })).max(5000)),
  }),
};

/** A signed-in session as the online-users screen lists it. */
export const onlineSessionSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  username: z.string(),
  nickname: z.string(),
  grantType: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** The caller's own session (not merely the caller's user: one user may have several). */
  current: z.boolean(),
});
export type OnlineSession = z.infer<typeof onlineSessionSchema>;

/** A value of a dictionary, as every select showing one reads it. */
export const dictOptionSchema = z.object({ dictName: z.string(), dictValue: z.string() });
export type DictOption = z.infer<typeof dictOptionSchema>;

/** One node of the organisation/user tree (role assignment): organisations hold users. */
export interface OrgUserNode {
  key: string;
  title: string;
  kind: 'org' | 'user';
  id: string;
  /** Users only: whether the user holds the role asked about. */
  assigned?: boolean;
  children: OrgUserNode[];
}
export const orgUserNodeSchema: z.ZodType<OrgUserNode> = z.lazy(() =>
  z.object({
    key: z.string(),
    title: z.string(),
    kind: z.enum(['org', 'user']),
    id: z.string(),
    assigned: z.boolean().optional(),
    children: z.array(orgUserNodeSchema),
  }),
);

/** A menu with its buttons, for the role authorisation screen. */
export interface MenuButtonNode {
  id: string;
  menuCode: string;
  menuName: string;
  menuParent: string | null;
  buttons: Array<{ id: string; buttonCode: string; buttonName: string }>;
  children: MenuButtonNode[];
}
export const menuButtonNodeSchema: z.ZodType<MenuButtonNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    menuCode: z.string(),
    menuName: z.string(),
    menuParent: z.string().nullable(),
    buttons: z.array(z.object({ id: z.string(), buttonCode: z.string(), buttonName: z.string() })),
    children: z.array(menuButtonNodeSchema),
  }),
);

/** A zone of the caller, as the zone store of spec §3 keeps it (tree, leaves selectable). */
export interface ZoneNode {
  id: string;
  zoneName: string;
  zoneCode: string;
  children: ZoneNode[];
}
export const zoneNodeSchema: z.ZodType<ZoneNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    zoneName: z.string(),
    zoneCode: z.string(),
    children: z.array(zoneNodeSchema),
  }),
);
