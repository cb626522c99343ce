import { ScreenFrame } from '../components/screen-frame.tsx';

export default function PlanningListScreen() {
  return <ScreenFrame route="planning-list" />;
}
