import { stringify } from 'yaml';
import { staticExportCrd } from '../../apis/crd/staticexport-crd.js';
import type { Command } from '../command.js';

export const manifestsCommand: Command = {
  name: 'manifests',
  summary: 'print the StaticExport CustomResourceDefinition (kubectl apply -f -)',
  run() {
    process.stdout.write(stringify(staticExportCrd(), { lineWidth: 0 }));
    return Promise.resolve(0);
  },
};
