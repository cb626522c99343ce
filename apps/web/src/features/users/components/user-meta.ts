import { ROLES, type Role } from '@fvg/contracts';

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  staff: 'Staff',
  customer: 'Customer',
};
export const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
