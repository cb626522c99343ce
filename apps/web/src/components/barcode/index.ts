export { Code128, type Code128Props, Gs1_128, type Gs1_128Props } from './barcode.tsx';
