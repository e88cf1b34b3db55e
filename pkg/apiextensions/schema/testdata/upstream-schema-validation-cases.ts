// Cases of upstream's TestValidateCustomResourceDefinitionValidation and, for the schema part of a
// CRD, TestValidateCustomResourceDefinition (k8s.io/apiextensions-apiserver v0.30,
// pkg/apis/apiextensions/validation/validation_test.go), converted from their Go literals to the
// JSON a CRD carries: each schema, whether its version has a status sub-resource, the options
// upstream ran it with, and the expected errors by type and field (and text, where upstream
// checks one). Cases about CEL rules are left out (pkg/cel's), as are errors outside the schema.
import type { JSONSchemaProps } from '../json-schema-props.js';

export interface ExpectedError {
  type: string;
  field: string;
  contains?: string;
}

export interface SchemaCase {
  name: string;
  schema: JSONSchemaProps | null;
  statusEnabled: boolean;
  opts: Record<string, boolean>;
  expected: ExpectedError[];
}

export interface CRDCase {
  name: string;
  schemas: { path: string; schema: JSONSchemaProps; statusEnabled: boolean }[];
  expected: ExpectedError[];
}

export const upstreamCases: { cases: SchemaCase[]; crdCases: CRDCase[] } = {
 "cases": [
  {
   "name": "empty",
   "schema": null,
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "empty with status",
   "schema": null,
   "statusEnabled": true,
   "opts": {},
   "expected": []
  },
  {
   "name": "root type without status",
   "schema": {
    "type": "string"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "root type having invalid value, with status",
   "schema": {
    "type": "string"
   },
   "statusEnabled": true,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "non-allowed root field with status",
   "schema": {
    "anyOf": [
     {
      "description": "First schema"
     },
     {
      "description": "Second schema"
     }
    ]
   },
   "statusEnabled": true,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema"
    }
   ]
  },
  {
   "name": "all allowed fields at the root of the schema with status",
   "schema": {
    "description": "This is a description",
    "type": "object",
    "format": "date-time",
    "title": "This is a title",
    "maximum": 10,
    "exclusiveMaximum": true,
    "minimum": 5,
    "exclusiveMinimum": true,
    "maxLength": 10,
    "minLength": 5,
    "pattern": "^[a-z]$",
    "maxItems": 10,
    "minItems": 5,
    "multipleOf": 3,
    "required": [
     "spec",
     "status"
    ],
    "properties": {
     "spec": {
      "type": "object",
      "items": {
       "description": "This is a schema nested under Items",
       "type": "string"
      }
     },
     "status": {
      "type": "object"
     }
    },
    "externalDocs": {
     "description": "This is an external documentation description"
    },
    "example": "This is an example"
   },
   "statusEnabled": true,
   "opts": {},
   "expected": []
  },
  {
   "name": "null type",
   "schema": {
    "properties": {
     "null": {
      "type": "null"
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[null].type"
    }
   ]
  },
  {
   "name": "nullable at the root",
   "schema": {
    "type": "object",
    "nullable": true
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.nullable"
    }
   ]
  },
  {
   "name": "nullable without type",
   "schema": {
    "properties": {
     "nullable": {
      "nullable": true
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "nullable with types",
   "schema": {
    "properties": {
     "object": {
      "type": "object",
      "nullable": true
     },
     "array": {
      "type": "array",
      "nullable": true
     },
     "number": {
      "type": "number",
      "nullable": true
     },
     "string": {
      "type": "string",
      "nullable": true
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "must be structural, but isn't",
   "schema": {},
   "statusEnabled": false,
   "opts": {
    "requireStructuralSchema": true
   },
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "must be structural",
   "schema": {
    "type": "object"
   },
   "statusEnabled": false,
   "opts": {
    "requireStructuralSchema": true
   },
   "expected": []
  },
  {
   "name": "require valid types, valid",
   "schema": {
    "type": "object"
   },
   "statusEnabled": false,
   "opts": {
    "requireValidPropertyType": true,
    "requireStructuralSchema": true
   },
   "expected": []
  },
  {
   "name": "require valid types, invalid",
   "schema": {
    "type": "null"
   },
   "statusEnabled": false,
   "opts": {
    "requireValidPropertyType": true,
    "requireStructuralSchema": true
   },
   "expected": [
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.type"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "require valid types, invalid",
   "schema": {
    "type": "bogus"
   },
   "statusEnabled": false,
   "opts": {
    "requireValidPropertyType": true,
    "requireStructuralSchema": true
   },
   "expected": [
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "invalid type with list type extension set",
   "schema": {
    "type": "object",
    "x-kubernetes-list-type": "set"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "unset type with list type extension set",
   "schema": {
    "x-kubernetes-list-type": "set"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "invalid list type extension",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "invalid"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-list-type"
    }
   ]
  },
  {
   "name": "invalid list type extension with list map keys extension non-empty",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "x-kubernetes-list-map-keys": [
     "key"
    ]
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-list-type"
    }
   ]
  },
  {
   "name": "unset list type extension with list map keys extension non-empty",
   "schema": {
    "x-kubernetes-list-map-keys": [
     "key"
    ]
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-list-type"
    }
   ]
  },
  {
   "name": "empty list map keys extension with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-list-map-keys"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.items"
    }
   ]
  },
  {
   "name": "no items schema with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ]
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.items"
    }
   ]
  },
  {
   "name": "multiple schema items with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": [
     {
      "type": "string"
     },
     {
      "type": "integer"
     }
    ]
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.items"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.items"
    }
   ]
  },
  {
   "name": "non object item with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "string"
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.items.type"
    }
   ]
  },
  {
   "name": "items with key missing from properties with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "object"
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-list-map-keys"
    }
   ]
  },
  {
   "name": "items with non scalar key property type with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "object",
     "properties": {
      "key": {
       "type": "object"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.items.properties[key].type"
    }
   ]
  },
  {
   "name": "duplicate map keys with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key",
     "key"
    ],
    "items": {
     "type": "object",
     "properties": {
      "key": {
       "type": "string"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-list-map-keys"
    }
   ]
  },
  {
   "name": "allowed schema with list type extension map",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "keyA",
     "keyB"
    ],
    "items": {
     "type": "object",
     "properties": {
      "keyA": {
       "type": "string"
      },
      "keyB": {
       "type": "integer"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "allowed list-type atomic",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "atomic",
    "items": {
     "type": "string"
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "allowed list-type atomic with non-atomic items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "atomic",
    "items": {
     "type": "object",
     "properties": {}
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "allowed list-type set with scalar items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "type": "string"
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "allowed list-type set with atomic map items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "type": "object",
     "x-kubernetes-map-type": "atomic",
     "properties": {
      "foo": {
       "type": "string"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "invalid list-type set with non-atomic map items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "type": "object",
     "x-kubernetes-map-type": "granular",
     "properties": {
      "foo": {
       "type": "string"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireAtomicSetType": true
   },
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.items.x-kubernetes-map-type"
    }
   ]
  },
  {
   "name": "invalid list-type set with unspecified map-type for map items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "type": "object",
     "properties": {
      "foo": {
       "type": "string"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireAtomicSetType": true
   },
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.items.x-kubernetes-map-type"
    }
   ]
  },
  {
   "name": "allowed list-type set with atomic list items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "type": "array",
     "x-kubernetes-list-type": "atomic",
     "items": {
      "type": "string"
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "allowed list-type set with unspecified list-type in list items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "type": "array",
     "items": {
      "type": "string"
     }
    }
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "invalid list-type set with with non-atomic list items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "type": "array",
     "x-kubernetes-list-type": "set",
     "items": {
      "type": "string"
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireAtomicSetType": true
   },
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.items.x-kubernetes-list-type"
    }
   ]
  },
  {
   "name": "invalid type with map type extension (granular)",
   "schema": {
    "type": "array",
    "x-kubernetes-map-type": "granular"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "unset type with map type extension (granular)",
   "schema": {
    "x-kubernetes-map-type": "granular"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "invalid type with map type extension (atomic)",
   "schema": {
    "type": "array",
    "x-kubernetes-map-type": "atomic"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "unset type with map type extension (atomic)",
   "schema": {
    "x-kubernetes-map-type": "atomic"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "invalid map type",
   "schema": {
    "type": "object",
    "x-kubernetes-map-type": "badMapType"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": [
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-map-type"
    }
   ]
  },
  {
   "name": "allowed type with map type extension (granular)",
   "schema": {
    "type": "object",
    "x-kubernetes-map-type": "granular"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "allowed type with map type extension (atomic)",
   "schema": {
    "type": "object",
    "x-kubernetes-map-type": "atomic"
   },
   "statusEnabled": false,
   "opts": {},
   "expected": []
  },
  {
   "name": "invalid map with non-required key and no default",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "object",
     "properties": {
      "key": {
       "type": "string"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireMapListKeysMapSetValidation": true
   },
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.items.properties[key].default"
    }
   ]
  },
  {
   "name": "allowed map with required key and no default",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "object",
     "required": [
      "key"
     ],
     "properties": {
      "key": {
       "type": "string"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireMapListKeysMapSetValidation": true
   },
   "expected": []
  },
  {
   "name": "allowed map with non-required key and default",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "object",
     "properties": {
      "key": {
       "type": "string",
       "default": "stuff"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "allowDefaults": true,
    "requireMapListKeysMapSetValidation": true
   },
   "expected": []
  },
  {
   "name": "invalid map with nullable key",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "object",
     "properties": {
      "key": {
       "type": "string",
       "nullable": true
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireMapListKeysMapSetValidation": true
   },
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.items.properties[key].default"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.items.properties[key].nullable"
    }
   ]
  },
  {
   "name": "invalid map with nullable items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "key"
    ],
    "items": {
     "type": "object",
     "nullable": true,
     "properties": {
      "key": {
       "type": "string"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireMapListKeysMapSetValidation": true
   },
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.items.nullable"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.items.properties[key].default"
    }
   ]
  },
  {
   "name": "valid map with some required, some defaulted, and non-key fields",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [
     "a"
    ],
    "items": {
     "type": "object",
     "required": [
      "a",
      "c"
     ],
     "properties": {
      "key": {
       "type": "string"
      },
      "a": {
       "type": "string"
      },
      "b": {
       "type": "string",
       "default": "stuff"
      },
      "c": {
       "type": "int"
      }
     }
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireMapListKeysMapSetValidation": true
   },
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.items.properties[b].default"
    }
   ]
  },
  {
   "name": "invalid set with nullable items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "nullable": true
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireMapListKeysMapSetValidation": true
   },
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.items.nullable"
    }
   ]
  },
  {
   "name": "allowed set with non-nullable items",
   "schema": {
    "type": "array",
    "x-kubernetes-list-type": "set",
    "items": {
     "nullable": false
    }
   },
   "statusEnabled": false,
   "opts": {
    "requireMapListKeysMapSetValidation": true
   },
   "expected": []
  }
 ],
 "crdCases": [
  {
   "name": "invalid types disallowed",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "foo": {
        "type": "bogus"
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[foo].type"
    }
   ]
  },
  {
   "name": "webhookconfig: invalid port 0",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhookconfig: invalid port 65536",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhookconfig: both service and URL provided",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhookconfig: blank URL",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhookconfig_should_not_be_set",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "ConversionReviewVersions_should_not_be_set",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhookconfig: invalid ConversionReviewVersion",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhookconfig: at least one valid ConversionReviewVersion",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "missing_webhookconfig",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "invalid_conversion_strategy",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "none conversion without preserveUnknownFields=false",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhook conversion without preserveUnknownFields=false",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhook conversion with preserveUnknownFields=false, conversionReviewVersions=[v1beta1]",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "webhook conversion with preserveUnknownFields=false, conversionReviewVersions=[v1]",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "no_storage_version",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "multiple_storage_version",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "missing_storage_version_in_stored_versions",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "empty_stored_version",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "mismatched name",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "bad names 01",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "bad names 02",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "additionalProperties and properties forbidden",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "foo": {
        "type": "object",
        "properties": {
         "bar": {
          "type": "object"
         }
        },
        "additionalProperties": false
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[foo].additionalProperties"
    }
   ]
  },
  {
   "name": "additionalProperties without properties allowed (map[string]string)",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "foo": {
        "type": "object",
        "additionalProperties": {
         "type": "string"
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "per-version fields may not all be set to identical values (top-level field should be used instead)",
   "schemas": [
    {
     "path": "spec.versions[0].schema",
     "schema": {
      "description": "This is a description",
      "type": "object",
      "format": "date-time",
      "title": "This is a title",
      "maximum": 10,
      "exclusiveMaximum": true,
      "minimum": 5,
      "exclusiveMinimum": true,
      "maxLength": 10,
      "minLength": 5,
      "pattern": "^[a-z]$",
      "maxItems": 10,
      "minItems": 5,
      "multipleOf": 3,
      "required": [
       "spec",
       "status"
      ],
      "properties": {
       "spec": {
        "type": "object",
        "items": {
         "description": "This is a schema nested under Items",
         "type": "string"
        }
       },
       "status": {
        "type": "object"
       }
      },
      "externalDocs": {
       "description": "This is an external documentation description"
      },
      "example": "This is an example"
     },
     "statusEnabled": false
    },
    {
     "path": "spec.versions[1].schema",
     "schema": {
      "description": "This is a description",
      "type": "object",
      "format": "date-time",
      "title": "This is a title",
      "maximum": 10,
      "exclusiveMaximum": true,
      "minimum": 5,
      "exclusiveMinimum": true,
      "maxLength": 10,
      "minLength": 5,
      "pattern": "^[a-z]$",
      "maxItems": 10,
      "minItems": 5,
      "multipleOf": 3,
      "required": [
       "spec",
       "status"
      ],
      "properties": {
       "spec": {
        "type": "object",
        "items": {
         "description": "This is a schema nested under Items",
         "type": "string"
        }
       },
       "status": {
        "type": "object"
       }
      },
      "externalDocs": {
       "description": "This is an external documentation description"
      },
      "example": "This is an example"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "x-kubernetes-preserve-unknown-field: false",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "x-kubernetes-preserve-unknown-fields": false
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.x-kubernetes-preserve-unknown-fields"
    }
   ]
  },
  {
   "name": "preserveUnknownFields with unstructural global schema",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "description": "This is a description",
      "type": "object",
      "format": "date-time",
      "title": "This is a title",
      "maximum": 10,
      "exclusiveMaximum": true,
      "minimum": 5,
      "exclusiveMinimum": true,
      "maxLength": 10,
      "minLength": 5,
      "pattern": "^[a-z]$",
      "maxItems": 10,
      "minItems": 5,
      "multipleOf": 3,
      "required": [
       "spec",
       "status"
      ],
      "items": {
       "description": "This is a schema nested under Items"
      },
      "properties": {
       "spec": {},
       "status": {}
      },
      "externalDocs": {
       "description": "This is an external documentation description"
      },
      "example": "This is an example"
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[spec].type"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[status].type"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.items.type"
    }
   ]
  },
  {
   "name": "preserveUnknownFields with unstructural schema in one version",
   "schemas": [
    {
     "path": "spec.versions[0].schema",
     "schema": {
      "description": "This is a description",
      "type": "object",
      "format": "date-time",
      "title": "This is a title",
      "maximum": 10,
      "exclusiveMaximum": true,
      "minimum": 5,
      "exclusiveMinimum": true,
      "maxLength": 10,
      "minLength": 5,
      "pattern": "^[a-z]$",
      "maxItems": 10,
      "minItems": 5,
      "multipleOf": 3,
      "required": [
       "spec",
       "status"
      ],
      "properties": {
       "spec": {
        "type": "object",
        "items": {
         "description": "This is a schema nested under Items",
         "type": "string"
        }
       },
       "status": {
        "type": "object"
       }
      },
      "externalDocs": {
       "description": "This is an external documentation description"
      },
      "example": "This is an example"
     },
     "statusEnabled": false
    },
    {
     "path": "spec.versions[1].schema",
     "schema": {
      "description": "This is a description",
      "type": "object",
      "format": "date-time",
      "title": "This is a title",
      "maximum": 10,
      "exclusiveMaximum": true,
      "minimum": 5,
      "exclusiveMinimum": true,
      "maxLength": 10,
      "minLength": 5,
      "pattern": "^[a-z]$",
      "maxItems": 10,
      "minItems": 5,
      "multipleOf": 3,
      "required": [
       "spec",
       "status"
      ],
      "items": {
       "description": "This is a schema nested under Items"
      },
      "properties": {
       "spec": {},
       "status": {}
      },
      "externalDocs": {
       "description": "This is an external documentation description"
      },
      "example": "This is an example"
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.versions[1].schema.openAPIV3Schema.properties[spec].type"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.versions[1].schema.openAPIV3Schema.properties[status].type"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.versions[1].schema.openAPIV3Schema.items.type"
    }
   ]
  },
  {
   "name": "preserveUnknownFields: true",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "labelSelectorPath outside of .spec and .status",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object"
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "defaults with enabled feature gate",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "a": {
        "type": "number",
        "default": 42.0
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "x-kubernetes-embedded-resource with pruning and empty properties",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "x-kubernetes-preserve-unknown-fields": true,
      "properties": {
       "nil": {
        "type": "object",
        "x-kubernetes-embedded-resource": true
       },
       "empty": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {}
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[nil].properties"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[empty].properties"
    }
   ]
  },
  {
   "name": "x-kubernetes-embedded-resource inside resource meta",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "embedded": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true
         },
         "apiVersion": {
          "type": "string",
          "properties": {
           "foo": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true
           }
          }
         },
         "kind": {
          "type": "string",
          "properties": {
           "foo": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true
           }
          }
         }
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[embedded].properties[metadata].x-kubernetes-embedded-resource"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[embedded].properties[apiVersion].properties[foo].x-kubernetes-embedded-resource"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[embedded].properties[kind].properties[foo].x-kubernetes-embedded-resource"
    }
   ]
  },
  {
   "name": "defaults with enabled feature gate, unstructural schema",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "properties": {
       "a": {
        "default": 42.0
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[a].type"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.type"
    }
   ]
  },
  {
   "name": "defaults with enabled feature gate, structural schema",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "a": {
        "type": "number",
        "default": 42.0
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": []
  },
  {
   "name": "defaults in value validation with enabled feature gate, structural schema",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "a": {
        "type": "number",
        "not": {
         "default": 42.0
        },
        "anyOf": [
         {
          "default": 42.0
         }
        ],
        "allOf": [
         {
          "default": 42.0
         }
        ],
        "oneOf": [
         {
          "default": 42.0
         }
        ]
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[a].not.default"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[a].allOf[0].default"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[a].anyOf[0].default"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[a].oneOf[0].default"
    }
   ]
  },
  {
   "name": "invalid defaults with enabled feature gate, structural schema",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "a": {
        "type": "object",
        "properties": {
         "foo": {
          "type": "string"
         }
        },
        "default": {
         "foo": "abc",
         "bar": 42.0
        }
       },
       "b": {
        "type": "object",
        "properties": {
         "foo": {
          "type": "string"
         }
        },
        "default": {
         "foo": "abc"
        }
       },
       "c": {
        "type": "object",
        "properties": {
         "foo": {
          "type": "string"
         }
        },
        "default": {
         "foo": 42
        }
       },
       "d": {
        "type": "object",
        "properties": {
         "good": {
          "type": "string",
          "pattern": "a"
         },
         "bad": {
          "type": "string",
          "pattern": "b"
         }
        },
        "default": {
         "good": "a",
         "bad": "a"
        }
       },
       "e": {
        "type": "object",
        "properties": {
         "preserveUnknownFields": {
          "type": "object",
          "default": {
           "foo": "abc",
           "bar": 42.0
          }
         },
         "nestedProperties": {
          "type": "object",
          "properties": {
           "foo": {
            "type": "string"
           }
          },
          "default": {
           "foo": "abc",
           "bar": 42.0
          }
         }
        },
        "x-kubernetes-preserve-unknown-fields": true
       },
       "embedded-fine": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "foo": {
          "type": "string"
         }
        },
        "default": {
         "foo": "abc",
         "apiVersion": "foo/v1",
         "kind": "v1",
         "metadata": {
          "name": "foo"
         }
        }
       },
       "embedded-preserve": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {
         "foo": {
          "type": "string"
         }
        },
        "default": {
         "foo": "abc",
         "apiVersion": "foo/v1",
         "kind": "v1",
         "metadata": {
          "name": "foo"
         },
         "bar": 42
        }
       },
       "embedded-preserve-unpruned-objectmeta": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {
         "foo": {
          "type": "string"
         }
        },
        "default": {
         "foo": "abc",
         "apiVersion": "foo/v1",
         "kind": "v1",
         "metadata": {
          "name": "foo",
          "unspecified": "bar"
         },
         "bar": 42
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[a].default"
    },
    {
     "type": "FieldValueTypeInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[c].default.foo"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[d].default.bad"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[e].properties[preserveUnknownFields].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[e].properties[nestedProperties].default"
    }
   ]
  },
  {
   "name": "additionalProperties at resource root",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "embedded1": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "additionalProperties": {
         "type": "string"
        }
       },
       "embedded2": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "additionalProperties": {
         "type": "string"
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[embedded1].additionalProperties"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[embedded1].properties"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[embedded2].additionalProperties"
    }
   ]
  },
  {
   "name": "v1.15 era tests for metadata defaults",
   "schemas": [
    {
     "path": "spec.versions[0].schema",
     "schema": {
      "type": "object",
      "properties": {
       "metadata": {
        "type": "object",
        "default": {
         "name": "foo"
        }
       },
       "embedded": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "default": {
           "name": "foo",
           "unknown": 42
          }
         }
        }
       }
      }
     },
     "statusEnabled": false
    },
    {
     "path": "spec.versions[1].schema",
     "schema": {
      "type": "object",
      "properties": {
       "metadata": {
        "type": "object",
        "properties": {
         "name": {
          "type": "string",
          "default": "foo"
         }
        }
       },
       "embedded": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "default": "v1"
         },
         "kind": {
          "type": "string",
          "default": "Pod"
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "default": "foo"
           }
          }
         }
        }
       }
      }
     },
     "statusEnabled": false
    },
    {
     "path": "spec.versions[2].schema",
     "schema": {
      "type": "object",
      "properties": {
       "embedded": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "default": "v1"
         },
         "kind": {
          "type": "string",
          "default": "%"
         },
         "metadata": {
          "type": "object",
          "default": {
           "labels": {
            "bar": "x y"
           }
          }
         }
        }
       }
      }
     },
     "statusEnabled": false
    },
    {
     "path": "spec.versions[3].schema",
     "schema": {
      "type": "object",
      "properties": {
       "embedded": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "default": 42
           },
           "labels": {
            "type": "object",
            "properties": {
             "bar": {
              "type": "string",
              "default": 42
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.versions[0].schema.openAPIV3Schema.properties[metadata].default"
    },
    {
     "type": "FieldValueForbidden",
     "field": "spec.versions[1].schema.openAPIV3Schema.properties[metadata].properties[name].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.versions[2].schema.openAPIV3Schema.properties[embedded].properties[metadata].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.versions[2].schema.openAPIV3Schema.properties[embedded].properties[kind].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.versions[3].schema.openAPIV3Schema.properties[embedded].properties[metadata].properties[labels].properties[bar].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.versions[3].schema.openAPIV3Schema.properties[embedded].properties[metadata].properties[name].default"
    }
   ]
  },
  {
   "name": "default inside additionalSchema",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "embedded": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "properties": {
           "annotations": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "default": "abc"
            }
           }
          }
         }
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[embedded].properties[metadata].properties[annotations].additionalProperties.default"
    }
   ]
  },
  {
   "name": "top-level metadata default",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "metadata": {
        "type": "object",
        "default": {
         "name": "foo"
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[metadata].default"
    }
   ]
  },
  {
   "name": "embedded metadata defaults",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "embedded": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "default": {
           "name": "foo"
          }
         }
        }
       },
       "allowed-in-object-defaults": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "default": "v1"
         },
         "kind": {
          "type": "string",
          "default": "Pod"
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "default": "foo"
           }
          },
          "default": {
           "unknown": 42
          }
         }
        }
       },
       "allowed-object-defaults": {
        "type": "object",
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "x-kubernetes-embedded-resource": true,
        "default": {
         "apiVersion": "v1",
         "kind": "Pod",
         "metadata": {
          "name": "foo",
          "unknown": 42
         }
        }
       },
       "allowed-spanning-object-defaults": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "v1",
          "kind": "Pod",
          "metadata": {
           "name": "foo",
           "unknown": 42
          }
         }
        }
       },
       "unknown-field-object-defaults": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "apiVersion": "v1",
         "kind": "Pod",
         "metadata": {
          "name": "foo",
          "unknown": 42
         },
         "unknown": 42
        }
       },
       "unknown-field-spanning-object-defaults": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "v1",
          "kind": "Pod",
          "metadata": {
           "name": "foo",
           "unknown": 42
          },
          "unknown": 42
         },
         "unknown": 42
        }
       },
       "x-preserve-unknown-fields-unknown-field-object-defaults": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {},
        "default": {
         "apiVersion": "v1",
         "kind": "Pod",
         "metadata": {
          "name": "foo",
          "unknown": 42
         },
         "unknown": 42
        }
       },
       "x-preserve-unknown-fields-unknown-field-spanning-object-defaults": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true,
          "properties": {}
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "v1",
          "kind": "Pod",
          "metadata": {
           "name": "foo",
           "unknown": 42
          },
          "unknown": 42
         }
        }
       },
       "x-preserve-unknown-fields-unknown-field-outside": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true,
          "properties": {}
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "v1",
          "kind": "Pod",
          "metadata": {
           "name": "foo",
           "unknown": 42
          },
          "unknown": 42
         },
         "unknown": 42
        }
       },
       "wrongly-typed-in-object-defaults": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "default": 42
         },
         "kind": {
          "type": "string",
          "default": 42
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "default": 42
           },
           "annotations": {
            "type": "object",
            "additionalProperties": {
             "type": "string"
            },
            "default": 42
           }
          }
         }
        }
       },
       "wrongly-typed-object-defaults-apiVersion": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "apiVersion": 42
        }
       },
       "wrongly-typed-object-defaults-kind": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "kind": 42
        }
       },
       "wrongly-typed-object-defaults-name": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "metadata": {
          "name": 42
         }
        }
       },
       "wrongly-typed-object-defaults-labels": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "metadata": {
          "labels": {
           "foo": 42
          }
         }
        }
       },
       "wrongly-typed-object-defaults-annotations": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "metadata": {
          "annotations": 42
         }
        }
       },
       "wrongly-typed-object-defaults-metadata": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "metadata": 42
        }
       },
       "wrongly-typed-spanning-object-defaults-apiVersion": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": 42
         }
        }
       },
       "wrongly-typed-spanning-object-defaults-kind": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "kind": 42
         }
        }
       },
       "wrongly-typed-spanning-object-defaults-name": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "metadata": {
           "name": 42
          }
         }
        }
       },
       "wrongly-typed-spanning-object-defaults-labels": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "metadata": {
           "labels": {
            "foo": 42
           }
          }
         }
        }
       },
       "wrongly-typed-spanning-object-defaults-annotations": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "metadata": {
           "annotations": 42
          }
         }
        }
       },
       "wrongly-typed-spanning-object-defaults-metadata": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "metadata": 42
         }
        }
       },
       "invalid-in-object-defaults": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "kind": {
          "type": "string",
          "default": "%"
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "default": "%"
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string"
            },
            "default": {
             "foo": "x y"
            }
           }
          }
         }
        }
       },
       "invalid-object-defaults-kind": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "apiVersion": "foo/v1",
         "kind": "%"
        }
       },
       "invalid-object-defaults-name": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "apiVersion": "foo/v1",
         "kind": "Foo",
         "metadata": {
          "name": "%"
         }
        }
       },
       "invalid-object-defaults-labels": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "something": {
          "type": "string"
         }
        },
        "default": {
         "apiVersion": "foo/v1",
         "kind": "Foo",
         "metadata": {
          "labels": {
           "foo": "x y"
          }
         }
        }
       },
       "invalid-spanning-object-defaults-kind": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "foo/v1",
          "kind": "%"
         }
        }
       },
       "invalid-spanning-object-defaults-name": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "foo/v1",
          "kind": "Foo",
          "metadata": {
           "name": "%"
          }
         }
        }
       },
       "invalid-spanning-object-defaults-labels": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "something": {
            "type": "string"
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "foo/v1",
          "kind": "Foo",
          "metadata": {
           "labels": {
            "foo": "x y"
           }
          }
         }
        }
       },
       "in-object-defaults-with-valid-constraints": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "default": "foo/v1",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "default": "Foo",
          "enum": [
           "Foo"
          ]
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "default": "foo",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            },
            "default": {
             "foo": "foo"
            }
           }
          }
         }
        }
       },
       "metadata-defaults-with-valid-constraints": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          },
          "default": {
           "name": "foo",
           "labels": {
            "foo": "foo"
           }
          }
         }
        }
       },
       "object-defaults-with-valid-constraints": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "enum": [
           "Foo"
          ]
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          }
         }
        },
        "default": {
         "apiVersion": "foo/v1",
         "kind": "Foo",
         "metadata": {
          "name": "foo",
          "labels": {
           "foo": "foo"
          }
         }
        }
       },
       "spanning-defaults-with-valid-constraints": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "apiVersion": {
            "type": "string",
            "enum": [
             "foo/v1"
            ]
           },
           "kind": {
            "type": "string",
            "enum": [
             "Foo"
            ]
           },
           "metadata": {
            "type": "object",
            "properties": {
             "name": {
              "type": "string",
              "enum": [
               "foo"
              ]
             },
             "labels": {
              "type": "object",
              "additionalProperties": {
               "type": "string",
               "enum": [
                "foo"
               ]
              }
             }
            }
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "foo/v1",
          "kind": "Foo",
          "metadata": {
           "name": "foo",
           "labels": {
            "foo": "foo"
           }
          }
         }
        }
       },
       "in-object-defaults-with-invalid-constraints": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "description": "BREAK",
          "default": "bar/v1",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "default": "Bar",
          "enum": [
           "Foo"
          ]
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "default": "bar",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            },
            "default": {
             "foo": "bar"
            }
           }
          }
         }
        }
       },
       "metadata-defaults-with-invalid-constraints-name": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          },
          "default": {
           "name": "bar"
          }
         }
        }
       },
       "metadata-defaults-with-invalid-constraints-labels": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          },
          "default": {
           "name": "foo",
           "labels": {
            "foo": "bar"
           }
          }
         }
        }
       },
       "object-defaults-with-invalid-constraints-name": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "enum": [
           "Foo"
          ]
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          }
         }
        },
        "default": {
         "apiVersion": "foo/v1",
         "kind": "Foo",
         "metadata": {
          "name": "bar"
         }
        }
       },
       "object-defaults-with-invalid-constraints-labels": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "enum": [
           "Foo"
          ]
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          }
         }
        },
        "default": {
         "apiVersion": "foo/v1",
         "kind": "Foo",
         "metadata": {
          "name": "foo",
          "labels": {
           "foo": "bar"
          }
         }
        }
       },
       "object-defaults-with-invalid-constraints-apiVersion": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "enum": [
           "Foo"
          ]
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          }
         }
        },
        "default": {
         "apiVersion": "bar/v1",
         "kind": "Foo",
         "metadata": {
          "name": "foo"
         }
        }
       },
       "object-defaults-with-invalid-constraints-kind": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "enum": [
           "Foo"
          ]
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "enum": [
             "foo"
            ]
           },
           "labels": {
            "type": "object",
            "additionalProperties": {
             "type": "string",
             "enum": [
              "foo"
             ]
            }
           }
          }
         }
        },
        "default": {
         "apiVersion": "foo/v1",
         "kind": "Bar",
         "metadata": {
          "name": "foo"
         }
        }
       },
       "spanning-defaults-with-invalid-constraints-name": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "apiVersion": {
            "type": "string",
            "enum": [
             "foo/v1"
            ]
           },
           "kind": {
            "type": "string",
            "enum": [
             "Foo"
            ]
           },
           "metadata": {
            "type": "object",
            "properties": {
             "name": {
              "type": "string",
              "enum": [
               "foo"
              ]
             },
             "labels": {
              "type": "object",
              "additionalProperties": {
               "type": "string",
               "enum": [
                "foo"
               ]
              }
             }
            }
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "foo/v1",
          "kind": "Foo",
          "metadata": {
           "name": "bar",
           "labels": {
            "foo": "foo"
           }
          }
         }
        }
       },
       "spanning-defaults-with-invalid-constraints-labels": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "apiVersion": {
            "type": "string",
            "enum": [
             "foo/v1"
            ]
           },
           "kind": {
            "type": "string",
            "enum": [
             "Foo"
            ]
           },
           "metadata": {
            "type": "object",
            "properties": {
             "name": {
              "type": "string",
              "enum": [
               "foo"
              ]
             },
             "labels": {
              "type": "object",
              "additionalProperties": {
               "type": "string",
               "enum": [
                "foo"
               ]
              }
             }
            }
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "foo/v1",
          "kind": "Foo",
          "metadata": {
           "name": "foo",
           "labels": {
            "foo": "bar"
           }
          }
         }
        }
       },
       "spanning-defaults-with-invalid-constraints-apiVersion": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "apiVersion": {
            "type": "string",
            "enum": [
             "foo/v1"
            ]
           },
           "kind": {
            "type": "string",
            "enum": [
             "Foo"
            ]
           },
           "metadata": {
            "type": "object",
            "properties": {
             "name": {
              "type": "string",
              "enum": [
               "foo"
              ]
             },
             "labels": {
              "type": "object",
              "additionalProperties": {
               "type": "string",
               "enum": [
                "foo"
               ]
              }
             }
            }
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "bar/v1",
          "kind": "Foo",
          "metadata": {
           "name": "foo",
           "labels": {
            "foo": "foo"
           }
          }
         }
        }
       },
       "spanning-defaults-with-invalid-constraints-kind": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "apiVersion": {
            "type": "string",
            "enum": [
             "foo/v1"
            ]
           },
           "kind": {
            "type": "string",
            "enum": [
             "Foo"
            ]
           },
           "metadata": {
            "type": "object",
            "properties": {
             "name": {
              "type": "string",
              "enum": [
               "foo"
              ]
             },
             "labels": {
              "type": "object",
              "additionalProperties": {
               "type": "string",
               "enum": [
                "foo"
               ]
              }
             }
            }
           }
          }
         }
        },
        "default": {
         "embedded": {
          "apiVersion": "foo/v1",
          "kind": "Bar",
          "metadata": {
           "name": "foo",
           "labels": {
            "foo": "foo"
           }
          }
         }
        }
       },
       "object-defaults-with-missing-typemeta": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string",
          "enum": [
           "foo/v1"
          ]
         },
         "kind": {
          "type": "string",
          "enum": [
           "Foo"
          ]
         }
        },
        "default": {
         "metadata": {
          "name": "bar"
         }
        }
       },
       "spanning-defaults-with-missing-typemeta": {
        "type": "object",
        "properties": {
         "embedded": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "apiVersion": {
            "type": "string",
            "enum": [
             "foo/v1"
            ]
           },
           "kind": {
            "type": "string",
            "enum": [
             "Foo"
            ]
           }
          }
         }
        },
        "default": {
         "embedded": {
          "metadata": {
           "name": "bar"
          }
         }
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[unknown-field-object-defaults].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[unknown-field-spanning-object-defaults].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[x-preserve-unknown-fields-unknown-field-outside].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[kind].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[apiVersion].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[metadata].properties[name].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[metadata].properties[annotations].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-metadata].default.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-apiVersion].default.apiVersion"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-kind].default.kind"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-name].default.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-labels].default.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-annotations].default.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-metadata].default.embedded.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-apiVersion].default.embedded.apiVersion"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-kind].default.embedded.kind"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-name].default.embedded.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-labels].default.embedded.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-annotations].default.embedded.metadata"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-in-object-defaults].properties[metadata].properties[name].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-in-object-defaults].properties[metadata].properties[labels].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-in-object-defaults].properties[kind].default"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-object-defaults-kind].default.kind"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-object-defaults-name].default.metadata.name"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-object-defaults-labels].default.metadata.labels"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-spanning-object-defaults-kind].default.embedded.kind"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-spanning-object-defaults-name].default.embedded.metadata.name"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid-spanning-object-defaults-labels].default.embedded.metadata.labels"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[apiVersion].default"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[kind].default"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[metadata].properties[name].default"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[metadata].properties[labels].default.foo"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[metadata-defaults-with-invalid-constraints-name].properties[metadata].default.name"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[metadata-defaults-with-invalid-constraints-labels].properties[metadata].default.labels.foo"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-name].default.metadata.name"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-labels].default.metadata.labels.foo"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-apiVersion].default.apiVersion"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-kind].default.kind"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-kind].default.embedded.kind"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-labels].default.embedded.metadata.labels.foo"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-apiVersion].default.embedded.apiVersion"
    },
    {
     "type": "FieldValueNotSupported",
     "field": "spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-name].default.embedded.metadata.name"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[object-defaults-with-missing-typemeta].default.apiVersion"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[object-defaults-with-missing-typemeta].default.kind"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[spanning-defaults-with-missing-typemeta].default.embedded.apiVersion"
    },
    {
     "type": "FieldValueRequired",
     "field": "spec.validation.openAPIV3Schema.properties[spanning-defaults-with-missing-typemeta].default.embedded.kind"
    }
   ]
  },
  {
   "name": "contradicting meta field types",
   "schemas": [
    {
     "path": "spec.validation",
     "schema": {
      "type": "object",
      "properties": {
       "apiVersion": {
        "type": "number"
       },
       "kind": {
        "type": "number"
       },
       "metadata": {
        "type": "number",
        "properties": {
         "name": {
          "type": "string",
          "pattern": "abc"
         },
         "generateName": {
          "type": "string",
          "pattern": "abc"
         },
         "generation": {
          "type": "integer"
         }
        }
       },
       "valid": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "string"
         },
         "kind": {
          "type": "string"
         },
         "metadata": {
          "type": "object",
          "properties": {
           "name": {
            "type": "string",
            "pattern": "abc"
           },
           "generateName": {
            "type": "string",
            "pattern": "abc"
           },
           "generation": {
            "type": "integer",
            "minimum": 42.0
           }
          }
         }
        }
       },
       "invalid": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "apiVersion": {
          "type": "number"
         },
         "kind": {
          "type": "number"
         },
         "metadata": {
          "type": "number",
          "properties": {
           "name": {
            "type": "string",
            "pattern": "abc"
           },
           "generateName": {
            "type": "string",
            "pattern": "abc"
           },
           "generation": {
            "type": "integer",
            "minimum": 42.0
           }
          }
         }
        }
       },
       "nested": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
         "invalid": {
          "type": "object",
          "x-kubernetes-embedded-resource": true,
          "properties": {
           "apiVersion": {
            "type": "number"
           },
           "kind": {
            "type": "number"
           },
           "metadata": {
            "type": "number",
            "properties": {
             "name": {
              "type": "string",
              "pattern": "abc"
             },
             "generateName": {
              "type": "string",
              "pattern": "abc"
             },
             "generation": {
              "type": "integer",
              "minimum": 42.0
             }
            }
           }
          }
         }
        }
       },
       "noEmbeddedObject": {
        "type": "object",
        "properties": {
         "apiVersion": {
          "type": "number"
         },
         "kind": {
          "type": "number"
         },
         "metadata": {
          "type": "number"
         }
        }
       }
      }
     },
     "statusEnabled": false
    }
   ],
   "expected": [
    {
     "type": "FieldValueForbidden",
     "field": "spec.validation.openAPIV3Schema.properties[metadata]"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[apiVersion].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[kind].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[metadata].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid].properties[apiVersion].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid].properties[kind].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[invalid].properties[metadata].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[nested].properties[invalid].properties[apiVersion].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[nested].properties[invalid].properties[kind].type"
    },
    {
     "type": "FieldValueInvalid",
     "field": "spec.validation.openAPIV3Schema.properties[nested].properties[invalid].properties[metadata].type"
    }
   ]
  }
 ]
};
