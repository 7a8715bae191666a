import packageJson from '../../package.json' with { type: 'json' };

export const productVersion: string = packageJson.version;
