import { ScreenFrame } from '../components/screen-frame.tsx';

export default function ContainerEventsScreen() {
  return <ScreenFrame route="container-events" />;
}
