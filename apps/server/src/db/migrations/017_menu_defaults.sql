-- The default menus (DEFAULT_MENUS, by code) each tenant has been given. A menu added to the
-- defaults by an upgrade (the monitoring areas, issue 18) reaches the tenants provisioned before
-- it once, at the next start (default-menu-sync.ts), and a default menu an administrator deleted
-- is never given again.
CREATE TABLE sys_menu_default (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  menu_code text NOT NULL,
  PRIMARY KEY (tenant_id, menu_code)
);

-- Existing tenants were given the menus they hold. (A default menu deleted before this upgrade
-- cannot be told from one never given: it comes back once.)
INSERT INTO sys_menu_default (tenant_id, menu_code)
SELECT tenant_id, menu_code FROM sys_menu
ON CONFLICT DO NOTHING;
