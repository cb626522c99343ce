import { ScreenFrame } from '../components/screen-frame.tsx';
import { DashboardView } from '../features/dashboard/components/dashboard-view.tsx';

/** /dashboard: the user's cards, each a figure or chart linking to its filtered list. */
export default function DashboardScreen() {
  return (
    <ScreenFrame route="dashboard">
      <DashboardView />
    </ScreenFrame>
  );
}
