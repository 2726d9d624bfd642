import { describeObjectStoreContract } from './object-store.contract.js';

describeObjectStoreContract('s3');
