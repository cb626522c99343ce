import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DashboardScreen() {
  return <ScreenFrame route="dashboard" />;
}
