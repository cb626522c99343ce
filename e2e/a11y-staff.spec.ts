import { a11yTests } from './a11y.ts';

// WCAG 2.2 AA (issue 27, ADR 0072): the guest screens, staff's (every tab and form) and the admin's.
a11yTests(['staff', 'admin'], true, 'a11y-staff');
