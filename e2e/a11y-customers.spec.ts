import { a11yTests } from './a11y.ts';

// WCAG 2.2 AA (issue 27, ADR 0072): Acme's customer (every tab and form) and Globex's.
a11yTests(['acme', 'globex'], false, 'a11y-customers');
