// The chart library and its styles, in a chunk of their own that LazyLineChart loads.
import '@mantine/charts/styles.css';

export { LineChart as default } from '@mantine/charts';
