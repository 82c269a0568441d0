throw new Error('msgpackr native acceleration is not installed (scripts/no-native-msgpackr)');
