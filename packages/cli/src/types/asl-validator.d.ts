// asl-validator ships JavaScript only; this is the part of its API the tests use.
declare module "asl-validator" {
  interface ValidationResult {
    isValid: boolean;
    errors: { path?: string; message: string; "Error code"?: string }[];
    errorsText(separator?: string): string;
  }
  function aslValidator(definition: object, options?: { checkPaths?: boolean; checkArn?: boolean }): ValidationResult;
  export default aslValidator;
}
