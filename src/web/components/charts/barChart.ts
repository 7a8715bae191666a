// The chart library and its styles, in a chunk of their own that LazyBarChart loads.
import '@mantine/charts/styles.css';

export { BarChart as default } from '@mantine/charts';
