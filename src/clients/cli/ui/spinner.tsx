import { Text } from 'ink';
import Spinner from 'ink-spinner';

export function Progress({ label }: { label: string }) {
  return (
    <Text>
      <Text color="green">
        <Spinner type="dots" />
      </Text>{' '}
      {label}
    </Text>
  );
}
