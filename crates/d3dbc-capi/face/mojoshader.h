/* mojoshader.h: MojoShader's public API as d3dbc's face declares it.
 *
 * Written for d3dbc (crates/d3dbc-capi/face), not copied: the declarations, enum values
 * and struct layouts of MojoShader revision 6333f74's public header (the revision FNA3D
 * builds against), so that a program written for MojoShader's parse and effect API
 * compiles unchanged against it. tests/mojoshader_layout.rs checks every struct's size
 * and every field's offset, and every enumeration value, against MojoShader's own header
 * (from `cargo xtask peers`).
 *
 * The library is libd3dbc_mojoshader (crates/d3dbc-mojoshader; `cargo xtask capi
 * --prefix DIR` installs it with this header as include/mojoshader.h). It implements
 * the parse, preshader and SPIR-V link functions and the effect functions. */

#ifndef _INCL_MOJOSHADER_H_
#define _INCL_MOJOSHADER_H_

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MOJOSHADER_NO_VERSION_INCLUDE
/* d3dbc's face has no mojoshader_version.h: the version is the library's. */
#endif
#ifndef MOJOSHADER_VERSION
#define MOJOSHADER_VERSION -1
#endif
#ifndef MOJOSHADER_CHANGESET
#define MOJOSHADER_CHANGESET "d3dbc"
#endif

#ifndef DECLSPEC
#ifdef _WIN32
#define DECLSPEC __declspec(dllexport)
#else
#define DECLSPEC
#endif
#endif

#ifndef MOJOSHADERCALL
#ifdef _WIN32
#define MOJOSHADERCALL __cdecl
#else
#define MOJOSHADERCALL
#endif
#endif

#ifndef MOJOSHADERNAMELESS
#ifdef __GNUC__
#define MOJOSHADERNAMELESS __extension__
#else
#define MOJOSHADERNAMELESS
#endif
#endif

DECLSPEC int MOJOSHADER_version(void);
DECLSPEC const char *MOJOSHADER_changeset(void);

typedef void *(MOJOSHADERCALL *MOJOSHADER_malloc)(int bytes, void *data);
typedef void (MOJOSHADERCALL *MOJOSHADER_free)(void *ptr, void *data);

typedef enum
{
    MOJOSHADER_TYPE_UNKNOWN = 0,
    MOJOSHADER_TYPE_PIXEL = (1 << 0),
    MOJOSHADER_TYPE_VERTEX = (1 << 1),
    MOJOSHADER_TYPE_GEOMETRY = (1 << 2),
    MOJOSHADER_TYPE_ANY = 0x7FFFFFFF
} MOJOSHADER_shaderType;

typedef enum
{
    MOJOSHADER_ATTRIBUTE_UNKNOWN = -1,
    MOJOSHADER_ATTRIBUTE_BYTE = 0,
    MOJOSHADER_ATTRIBUTE_UBYTE = 1,
    MOJOSHADER_ATTRIBUTE_SHORT = 2,
    MOJOSHADER_ATTRIBUTE_USHORT = 3,
    MOJOSHADER_ATTRIBUTE_INT = 4,
    MOJOSHADER_ATTRIBUTE_UINT = 5,
    MOJOSHADER_ATTRIBUTE_FLOAT = 6,
    MOJOSHADER_ATTRIBUTE_DOUBLE = 7,
    MOJOSHADER_ATTRIBUTE_HALF_FLOAT = 8
} MOJOSHADER_attributeType;

typedef enum
{
    MOJOSHADER_UNIFORM_UNKNOWN = -1,
    MOJOSHADER_UNIFORM_FLOAT = 0,
    MOJOSHADER_UNIFORM_INT = 1,
    MOJOSHADER_UNIFORM_BOOL = 2
} MOJOSHADER_uniformType;

typedef struct MOJOSHADER_uniform
{
    MOJOSHADER_uniformType type;
    int index;
    int array_count;
    int constant;
    const char *name;
} MOJOSHADER_uniform;

typedef struct MOJOSHADER_constant
{
    MOJOSHADER_uniformType type;
    int index;
    union
    {
        float f[4];
        int i[4];
        int b;
    } value;
} MOJOSHADER_constant;

typedef enum
{
    MOJOSHADER_SAMPLER_UNKNOWN = -1,
    MOJOSHADER_SAMPLER_2D = 0,
    MOJOSHADER_SAMPLER_CUBE = 1,
    MOJOSHADER_SAMPLER_VOLUME = 2
} MOJOSHADER_samplerType;

typedef struct MOJOSHADER_sampler
{
    MOJOSHADER_samplerType type;
    int index;
    const char *name;
    int texbem;
} MOJOSHADER_sampler;

typedef struct MOJOSHADER_samplerMap
{
    int index;
    MOJOSHADER_samplerType type;
} MOJOSHADER_samplerMap;

typedef enum
{
    MOJOSHADER_USAGE_UNKNOWN = -1,
    MOJOSHADER_USAGE_POSITION = 0,
    MOJOSHADER_USAGE_BLENDWEIGHT = 1,
    MOJOSHADER_USAGE_BLENDINDICES = 2,
    MOJOSHADER_USAGE_NORMAL = 3,
    MOJOSHADER_USAGE_POINTSIZE = 4,
    MOJOSHADER_USAGE_TEXCOORD = 5,
    MOJOSHADER_USAGE_TANGENT = 6,
    MOJOSHADER_USAGE_BINORMAL = 7,
    MOJOSHADER_USAGE_TESSFACTOR = 8,
    MOJOSHADER_USAGE_POSITIONT = 9,
    MOJOSHADER_USAGE_COLOR = 10,
    MOJOSHADER_USAGE_FOG = 11,
    MOJOSHADER_USAGE_DEPTH = 12,
    MOJOSHADER_USAGE_SAMPLE = 13,
    MOJOSHADER_USAGE_TOTAL = 14
} MOJOSHADER_usage;

typedef struct MOJOSHADER_attribute
{
    MOJOSHADER_usage usage;
    int index;
    const char *name;
} MOJOSHADER_attribute;

typedef struct MOJOSHADER_swizzle
{
    MOJOSHADER_usage usage;
    unsigned int index;
    unsigned char swizzles[4];
} MOJOSHADER_swizzle;

typedef enum
{
    MOJOSHADER_SYMREGSET_BOOL = 0,
    MOJOSHADER_SYMREGSET_INT4 = 1,
    MOJOSHADER_SYMREGSET_FLOAT4 = 2,
    MOJOSHADER_SYMREGSET_SAMPLER = 3,
    MOJOSHADER_SYMREGSET_TOTAL = 4
} MOJOSHADER_symbolRegisterSet;

typedef enum
{
    MOJOSHADER_SYMCLASS_SCALAR = 0,
    MOJOSHADER_SYMCLASS_VECTOR = 1,
    MOJOSHADER_SYMCLASS_MATRIX_ROWS = 2,
    MOJOSHADER_SYMCLASS_MATRIX_COLUMNS = 3,
    MOJOSHADER_SYMCLASS_OBJECT = 4,
    MOJOSHADER_SYMCLASS_STRUCT = 5,
    MOJOSHADER_SYMCLASS_TOTAL = 6
} MOJOSHADER_symbolClass;

typedef enum
{
    MOJOSHADER_SYMTYPE_VOID = 0,
    MOJOSHADER_SYMTYPE_BOOL = 1,
    MOJOSHADER_SYMTYPE_INT = 2,
    MOJOSHADER_SYMTYPE_FLOAT = 3,
    MOJOSHADER_SYMTYPE_STRING = 4,
    MOJOSHADER_SYMTYPE_TEXTURE = 5,
    MOJOSHADER_SYMTYPE_TEXTURE1D = 6,
    MOJOSHADER_SYMTYPE_TEXTURE2D = 7,
    MOJOSHADER_SYMTYPE_TEXTURE3D = 8,
    MOJOSHADER_SYMTYPE_TEXTURECUBE = 9,
    MOJOSHADER_SYMTYPE_SAMPLER = 10,
    MOJOSHADER_SYMTYPE_SAMPLER1D = 11,
    MOJOSHADER_SYMTYPE_SAMPLER2D = 12,
    MOJOSHADER_SYMTYPE_SAMPLER3D = 13,
    MOJOSHADER_SYMTYPE_SAMPLERCUBE = 14,
    MOJOSHADER_SYMTYPE_PIXELSHADER = 15,
    MOJOSHADER_SYMTYPE_VERTEXSHADER = 16,
    MOJOSHADER_SYMTYPE_PIXELFRAGMENT = 17,
    MOJOSHADER_SYMTYPE_VERTEXFRAGMENT = 18,
    MOJOSHADER_SYMTYPE_UNSUPPORTED = 19,
    MOJOSHADER_SYMTYPE_TOTAL = 20
} MOJOSHADER_symbolType;

typedef struct MOJOSHADER_symbolStructMember MOJOSHADER_symbolStructMember;

typedef struct MOJOSHADER_symbolTypeInfo
{
    MOJOSHADER_symbolClass parameter_class;
    MOJOSHADER_symbolType parameter_type;
    unsigned int rows;
    unsigned int columns;
    unsigned int elements;
    unsigned int member_count;
    MOJOSHADER_symbolStructMember *members;
} MOJOSHADER_symbolTypeInfo;

struct MOJOSHADER_symbolStructMember
{
    const char *name;
    MOJOSHADER_symbolTypeInfo info;
};

typedef struct MOJOSHADER_symbol
{
    const char *name;
    MOJOSHADER_symbolRegisterSet register_set;
    unsigned int register_index;
    unsigned int register_count;
    MOJOSHADER_symbolTypeInfo info;
} MOJOSHADER_symbol;

#define MOJOSHADER_POSITION_NONE (-3)
#define MOJOSHADER_POSITION_BEFORE (-2)
#define MOJOSHADER_POSITION_AFTER (-1)

typedef struct MOJOSHADER_error
{
    const char *error;
    const char *filename;
    int error_position;
} MOJOSHADER_error;

typedef enum MOJOSHADER_preshaderOpcode
{
    MOJOSHADER_PRESHADEROP_NOP = 0,
    MOJOSHADER_PRESHADEROP_MOV = 1,
    MOJOSHADER_PRESHADEROP_NEG = 2,
    MOJOSHADER_PRESHADEROP_RCP = 3,
    MOJOSHADER_PRESHADEROP_FRC = 4,
    MOJOSHADER_PRESHADEROP_EXP = 5,
    MOJOSHADER_PRESHADEROP_LOG = 6,
    MOJOSHADER_PRESHADEROP_RSQ = 7,
    MOJOSHADER_PRESHADEROP_SIN = 8,
    MOJOSHADER_PRESHADEROP_COS = 9,
    MOJOSHADER_PRESHADEROP_ASIN = 10,
    MOJOSHADER_PRESHADEROP_ACOS = 11,
    MOJOSHADER_PRESHADEROP_ATAN = 12,
    MOJOSHADER_PRESHADEROP_MIN = 13,
    MOJOSHADER_PRESHADEROP_MAX = 14,
    MOJOSHADER_PRESHADEROP_LT = 15,
    MOJOSHADER_PRESHADEROP_GE = 16,
    MOJOSHADER_PRESHADEROP_ADD = 17,
    MOJOSHADER_PRESHADEROP_MUL = 18,
    MOJOSHADER_PRESHADEROP_ATAN2 = 19,
    MOJOSHADER_PRESHADEROP_DIV = 20,
    MOJOSHADER_PRESHADEROP_CMP = 21,
    MOJOSHADER_PRESHADEROP_MOVC = 22,
    MOJOSHADER_PRESHADEROP_DOT = 23,
    MOJOSHADER_PRESHADEROP_NOISE = 24,
    MOJOSHADER_PRESHADEROP_SCALAR_OPS = 25,
    MOJOSHADER_PRESHADEROP_MIN_SCALAR = MOJOSHADER_PRESHADEROP_SCALAR_OPS,
    MOJOSHADER_PRESHADEROP_MAX_SCALAR = 26,
    MOJOSHADER_PRESHADEROP_LT_SCALAR = 27,
    MOJOSHADER_PRESHADEROP_GE_SCALAR = 28,
    MOJOSHADER_PRESHADEROP_ADD_SCALAR = 29,
    MOJOSHADER_PRESHADEROP_MUL_SCALAR = 30,
    MOJOSHADER_PRESHADEROP_ATAN2_SCALAR = 31,
    MOJOSHADER_PRESHADEROP_DIV_SCALAR = 32,
    MOJOSHADER_PRESHADEROP_DOT_SCALAR = 33,
    MOJOSHADER_PRESHADEROP_NOISE_SCALAR = 34
} MOJOSHADER_preshaderOpcode;

typedef enum MOJOSHADER_preshaderOperandType
{
    MOJOSHADER_PRESHADEROPERAND_INPUT = 0,
    MOJOSHADER_PRESHADEROPERAND_OUTPUT = 1,
    MOJOSHADER_PRESHADEROPERAND_LITERAL = 2,
    MOJOSHADER_PRESHADEROPERAND_TEMP = 3
} MOJOSHADER_preshaderOperandType;

typedef struct MOJOSHADER_preshaderOperand
{
    MOJOSHADER_preshaderOperandType type;
    unsigned int index;
    unsigned int array_register_count;
    unsigned int *array_registers;
} MOJOSHADER_preshaderOperand;

typedef struct MOJOSHADER_preshaderInstruction
{
    MOJOSHADER_preshaderOpcode opcode;
    unsigned int element_count;
    unsigned int operand_count;
    MOJOSHADER_preshaderOperand operands[4];
} MOJOSHADER_preshaderInstruction;

typedef struct MOJOSHADER_preshader
{
    unsigned int literal_count;
    double *literals;
    unsigned int temp_count;
    unsigned int symbol_count;
    MOJOSHADER_symbol *symbols;
    unsigned int instruction_count;
    MOJOSHADER_preshaderInstruction *instructions;
    unsigned int register_count;
    float *registers;
    MOJOSHADER_malloc malloc;
    MOJOSHADER_free free;
    void *malloc_data;
} MOJOSHADER_preshader;

typedef struct MOJOSHADER_parseData
{
    int error_count;
    MOJOSHADER_error *errors;
    const char *profile;
    const char *output;
    int output_len;
    int instruction_count;
    MOJOSHADER_shaderType shader_type;
    int major_ver;
    int minor_ver;
    const char *mainfn;
    int uniform_count;
    MOJOSHADER_uniform *uniforms;
    int constant_count;
    MOJOSHADER_constant *constants;
    int sampler_count;
    MOJOSHADER_sampler *samplers;
    int attribute_count;
    MOJOSHADER_attribute *attributes;
    int output_count;
    MOJOSHADER_attribute *outputs;
    int swizzle_count;
    MOJOSHADER_swizzle *swizzles;
    int symbol_count;
    MOJOSHADER_symbol *symbols;
    MOJOSHADER_preshader *preshader;
    MOJOSHADER_malloc malloc;
    MOJOSHADER_free free;
    void *malloc_data;
} MOJOSHADER_parseData;

#define MOJOSHADER_PROFILE_D3D "d3d"
#define MOJOSHADER_PROFILE_BYTECODE "bytecode"
#define MOJOSHADER_PROFILE_HLSL "hlsl"
#define MOJOSHADER_PROFILE_GLSL "glsl"
#define MOJOSHADER_PROFILE_GLSL120 "glsl120"
#define MOJOSHADER_PROFILE_GLSLES "glsles"
#define MOJOSHADER_PROFILE_GLSLES3 "glsles3"
#define MOJOSHADER_PROFILE_ARB1 "arb1"
#define MOJOSHADER_PROFILE_NV2 "nv2"
#define MOJOSHADER_PROFILE_NV3 "nv3"
#define MOJOSHADER_PROFILE_NV4 "nv4"
#define MOJOSHADER_PROFILE_METAL "metal"
#define MOJOSHADER_PROFILE_SPIRV "spirv"
#define MOJOSHADER_PROFILE_GLSPIRV "glspirv"

DECLSPEC int MOJOSHADER_maxShaderModel(const char *profile);

DECLSPEC const MOJOSHADER_parseData *MOJOSHADER_parse(const char *profile,
                                                      const char *mainfn,
                                                      const unsigned char *tokenbuf,
                                                      const unsigned int bufsize,
                                                      const MOJOSHADER_swizzle *swiz,
                                                      const unsigned int swizcount,
                                                      const MOJOSHADER_samplerMap *smap,
                                                      const unsigned int smapcount,
                                                      MOJOSHADER_malloc m,
                                                      MOJOSHADER_free f,
                                                      void *d);

DECLSPEC void MOJOSHADER_freeParseData(const MOJOSHADER_parseData *data);

DECLSPEC const MOJOSHADER_preshader *MOJOSHADER_parsePreshader(const unsigned char *buf,
                                                               const unsigned int len,
                                                               MOJOSHADER_malloc m,
                                                               MOJOSHADER_free f,
                                                               void *d);

DECLSPEC void MOJOSHADER_freePreshader(const MOJOSHADER_preshader *preshader);

typedef enum
{
    MOJOSHADER_VERTEXELEMENTFORMAT_SINGLE = 0,
    MOJOSHADER_VERTEXELEMENTFORMAT_VECTOR2 = 1,
    MOJOSHADER_VERTEXELEMENTFORMAT_VECTOR3 = 2,
    MOJOSHADER_VERTEXELEMENTFORMAT_VECTOR4 = 3,
    MOJOSHADER_VERTEXELEMENTFORMAT_COLOR = 4,
    MOJOSHADER_VERTEXELEMENTFORMAT_BYTE4 = 5,
    MOJOSHADER_VERTEXELEMENTFORMAT_SHORT2 = 6,
    MOJOSHADER_VERTEXELEMENTFORMAT_SHORT4 = 7,
    MOJOSHADER_VERTEXELEMENTFORMAT_NORMALIZEDSHORT2 = 8,
    MOJOSHADER_VERTEXELEMENTFORMAT_NORMALIZEDSHORT4 = 9,
    MOJOSHADER_VERTEXELEMENTFORMAT_HALFVECTOR2 = 10,
    MOJOSHADER_VERTEXELEMENTFORMAT_HALFVECTOR4 = 11
} MOJOSHADER_vertexElementFormat;

typedef struct MOJOSHADER_vertexAttribute
{
    MOJOSHADER_usage usage;
    MOJOSHADER_vertexElementFormat vertexElementFormat;
    int usageIndex;
} MOJOSHADER_vertexAttribute;

DECLSPEC int MOJOSHADER_linkSPIRVShaders(const MOJOSHADER_parseData *vertex_spirv,
                                         const MOJOSHADER_parseData *pixel_spirv,
                                         const MOJOSHADER_vertexAttribute *vertexAttributes,
                                         const int vertexAttributeCount);

#ifdef MOJOSHADER_EFFECT_SUPPORT

typedef enum MOJOSHADER_renderStateType
{
    MOJOSHADER_RS_ZENABLE = 0,
    MOJOSHADER_RS_FILLMODE = 1,
    MOJOSHADER_RS_SHADEMODE = 2,
    MOJOSHADER_RS_ZWRITEENABLE = 3,
    MOJOSHADER_RS_ALPHATESTENABLE = 4,
    MOJOSHADER_RS_LASTPIXEL = 5,
    MOJOSHADER_RS_SRCBLEND = 6,
    MOJOSHADER_RS_DESTBLEND = 7,
    MOJOSHADER_RS_CULLMODE = 8,
    MOJOSHADER_RS_ZFUNC = 9,
    MOJOSHADER_RS_ALPHAREF = 10,
    MOJOSHADER_RS_ALPHAFUNC = 11,
    MOJOSHADER_RS_DITHERENABLE = 12,
    MOJOSHADER_RS_ALPHABLENDENABLE = 13,
    MOJOSHADER_RS_FOGENABLE = 14,
    MOJOSHADER_RS_SPECULARENABLE = 15,
    MOJOSHADER_RS_FOGCOLOR = 16,
    MOJOSHADER_RS_FOGTABLEMODE = 17,
    MOJOSHADER_RS_FOGSTART = 18,
    MOJOSHADER_RS_FOGEND = 19,
    MOJOSHADER_RS_FOGDENSITY = 20,
    MOJOSHADER_RS_RANGEFOGENABLE = 21,
    MOJOSHADER_RS_STENCILENABLE = 22,
    MOJOSHADER_RS_STENCILFAIL = 23,
    MOJOSHADER_RS_STENCILZFAIL = 24,
    MOJOSHADER_RS_STENCILPASS = 25,
    MOJOSHADER_RS_STENCILFUNC = 26,
    MOJOSHADER_RS_STENCILREF = 27,
    MOJOSHADER_RS_STENCILMASK = 28,
    MOJOSHADER_RS_STENCILWRITEMASK = 29,
    MOJOSHADER_RS_TEXTUREFACTOR = 30,
    MOJOSHADER_RS_WRAP0 = 31,
    MOJOSHADER_RS_WRAP1 = 32,
    MOJOSHADER_RS_WRAP2 = 33,
    MOJOSHADER_RS_WRAP3 = 34,
    MOJOSHADER_RS_WRAP4 = 35,
    MOJOSHADER_RS_WRAP5 = 36,
    MOJOSHADER_RS_WRAP6 = 37,
    MOJOSHADER_RS_WRAP7 = 38,
    MOJOSHADER_RS_WRAP8 = 39,
    MOJOSHADER_RS_WRAP9 = 40,
    MOJOSHADER_RS_WRAP10 = 41,
    MOJOSHADER_RS_WRAP11 = 42,
    MOJOSHADER_RS_WRAP12 = 43,
    MOJOSHADER_RS_WRAP13 = 44,
    MOJOSHADER_RS_WRAP14 = 45,
    MOJOSHADER_RS_WRAP15 = 46,
    MOJOSHADER_RS_CLIPPING = 47,
    MOJOSHADER_RS_LIGHTING = 48,
    MOJOSHADER_RS_AMBIENT = 49,
    MOJOSHADER_RS_FOGVERTEXMODE = 50,
    MOJOSHADER_RS_COLORVERTEX = 51,
    MOJOSHADER_RS_LOCALVIEWER = 52,
    MOJOSHADER_RS_NORMALIZENORMALS = 53,
    MOJOSHADER_RS_DIFFUSEMATERIALSOURCE = 54,
    MOJOSHADER_RS_SPECULARMATERIALSOURCE = 55,
    MOJOSHADER_RS_AMBIENTMATERIALSOURCE = 56,
    MOJOSHADER_RS_EMISSIVEMATERIALSOURCE = 57,
    MOJOSHADER_RS_VERTEXBLEND = 58,
    MOJOSHADER_RS_CLIPPLANEENABLE = 59,
    MOJOSHADER_RS_POINTSIZE = 60,
    MOJOSHADER_RS_POINTSIZE_MIN = 61,
    MOJOSHADER_RS_POINTSPRITEENABLE = 62,
    MOJOSHADER_RS_POINTSCALEENABLE = 63,
    MOJOSHADER_RS_POINTSCALE_A = 64,
    MOJOSHADER_RS_POINTSCALE_B = 65,
    MOJOSHADER_RS_POINTSCALE_C = 66,
    MOJOSHADER_RS_MULTISAMPLEANTIALIAS = 67,
    MOJOSHADER_RS_MULTISAMPLEMASK = 68,
    MOJOSHADER_RS_PATCHEDGESTYLE = 69,
    MOJOSHADER_RS_DEBUGMONITORTOKEN = 70,
    MOJOSHADER_RS_POINTSIZE_MAX = 71,
    MOJOSHADER_RS_INDEXEDVERTEXBLENDENABLE = 72,
    MOJOSHADER_RS_COLORWRITEENABLE = 73,
    MOJOSHADER_RS_TWEENFACTOR = 74,
    MOJOSHADER_RS_BLENDOP = 75,
    MOJOSHADER_RS_POSITIONDEGREE = 76,
    MOJOSHADER_RS_NORMALDEGREE = 77,
    MOJOSHADER_RS_SCISSORTESTENABLE = 78,
    MOJOSHADER_RS_SLOPESCALEDEPTHBIAS = 79,
    MOJOSHADER_RS_ANTIALIASEDLINEENABLE = 80,
    MOJOSHADER_RS_MINTESSELLATIONLEVEL = 81,
    MOJOSHADER_RS_MAXTESSELLATIONLEVEL = 82,
    MOJOSHADER_RS_ADAPTIVETESS_X = 83,
    MOJOSHADER_RS_ADAPTIVETESS_Y = 84,
    MOJOSHADER_RS_ADAPTIVETESS_Z = 85,
    MOJOSHADER_RS_ADAPTIVETESS_W = 86,
    MOJOSHADER_RS_ENABLEADAPTIVETESSELLATION = 87,
    MOJOSHADER_RS_TWOSIDEDSTENCILMODE = 88,
    MOJOSHADER_RS_CCW_STENCILFAIL = 89,
    MOJOSHADER_RS_CCW_STENCILZFAIL = 90,
    MOJOSHADER_RS_CCW_STENCILPASS = 91,
    MOJOSHADER_RS_CCW_STENCILFUNC = 92,
    MOJOSHADER_RS_COLORWRITEENABLE1 = 93,
    MOJOSHADER_RS_COLORWRITEENABLE2 = 94,
    MOJOSHADER_RS_COLORWRITEENABLE3 = 95,
    MOJOSHADER_RS_BLENDFACTOR = 96,
    MOJOSHADER_RS_SRGBWRITEENABLE = 97,
    MOJOSHADER_RS_DEPTHBIAS = 98,
    MOJOSHADER_RS_SEPARATEALPHABLENDENABLE = 99,
    MOJOSHADER_RS_SRCBLENDALPHA = 100,
    MOJOSHADER_RS_DESTBLENDALPHA = 101,
    MOJOSHADER_RS_BLENDOPALPHA = 102,
    MOJOSHADER_RS_VERTEXSHADER = 146,
    MOJOSHADER_RS_PIXELSHADER = 147
} MOJOSHADER_renderStateType;

typedef enum MOJOSHADER_zBufferType
{
    MOJOSHADER_ZB_FALSE = 0,
    MOJOSHADER_ZB_TRUE = 1,
    MOJOSHADER_ZB_USEW = 2
} MOJOSHADER_zBufferType;

typedef enum MOJOSHADER_fillMode
{
    MOJOSHADER_FILL_POINT = 1,
    MOJOSHADER_FILL_WIREFRAME = 2,
    MOJOSHADER_FILL_SOLID = 3
} MOJOSHADER_fillMode;

typedef enum MOJOSHADER_shadeMode
{
    MOJOSHADER_SHADE_FLAT = 1,
    MOJOSHADER_SHADE_GOURAUD = 2,
    MOJOSHADER_SHADE_PHONG = 3
} MOJOSHADER_shadeMode;

typedef enum MOJOSHADER_blendMode
{
    MOJOSHADER_BLEND_ZERO = 1,
    MOJOSHADER_BLEND_ONE = 2,
    MOJOSHADER_BLEND_SRCCOLOR = 3,
    MOJOSHADER_BLEND_INVSRCCOLOR = 4,
    MOJOSHADER_BLEND_SRCALPHA = 5,
    MOJOSHADER_BLEND_INVSRCALPHA = 6,
    MOJOSHADER_BLEND_DESTALPHA = 7,
    MOJOSHADER_BLEND_INVDESTALPHA = 8,
    MOJOSHADER_BLEND_DESTCOLOR = 9,
    MOJOSHADER_BLEND_INVDESTCOLOR = 10,
    MOJOSHADER_BLEND_SRCALPHASAT = 11,
    MOJOSHADER_BLEND_BOTHSRCALPHA = 12,
    MOJOSHADER_BLEND_BOTHINVSRCALPHA = 13,
    MOJOSHADER_BLEND_BLENDFACTOR = 14,
    MOJOSHADER_BLEND_INVBLENDFACTOR = 15,
    MOJOSHADER_BLEND_SRCCOLOR2 = 16,
    MOJOSHADER_BLEND_INVSRCCOLOR2 = 17
} MOJOSHADER_blendMode;

typedef enum MOJOSHADER_cullMode
{
    MOJOSHADER_CULL_NONE = 1,
    MOJOSHADER_CULL_CW = 2,
    MOJOSHADER_CULL_CCW = 3
} MOJOSHADER_cullMode;

typedef enum MOJOSHADER_compareFunc
{
    MOJOSHADER_CMP_NEVER = 1,
    MOJOSHADER_CMP_LESS = 2,
    MOJOSHADER_CMP_EQUAL = 3,
    MOJOSHADER_CMP_LESSEQUAL = 4,
    MOJOSHADER_CMP_GREATER = 5,
    MOJOSHADER_CMP_NOTEQUAL = 6,
    MOJOSHADER_CMP_GREATEREQUAL = 7,
    MOJOSHADER_CMP_ALWAYS = 8
} MOJOSHADER_compareFunc;

typedef enum MOJOSHADER_fogMode
{
    MOJOSHADER_FOG_NONE = 0,
    MOJOSHADER_FOG_EXP = 1,
    MOJOSHADER_FOG_EXP2 = 2,
    MOJOSHADER_FOG_LINEAR = 3
} MOJOSHADER_fogMode;

typedef enum MOJOSHADER_stencilOp
{
    MOJOSHADER_STENCILOP_KEEP = 1,
    MOJOSHADER_STENCILOP_ZERO = 2,
    MOJOSHADER_STENCILOP_REPLACE = 3,
    MOJOSHADER_STENCILOP_INCRSAT = 4,
    MOJOSHADER_STENCILOP_DECRSAT = 5,
    MOJOSHADER_STENCILOP_INVERT = 6,
    MOJOSHADER_STENCILOP_INCR = 7,
    MOJOSHADER_STENCILOP_DECR = 8
} MOJOSHADER_stencilOp;

typedef enum MOJOSHADER_materialColorSource
{
    MOJOSHADER_MCS_MATERIAL = 0,
    MOJOSHADER_MCS_COLOR1 = 1,
    MOJOSHADER_MCS_COLOR2 = 2
} MOJOSHADER_materialColorSource;

typedef enum MOJOSHADER_vertexBlendFlags
{
    MOJOSHADER_VBF_DISABLE = 0,
    MOJOSHADER_VBF_1WEIGHTS = 1,
    MOJOSHADER_VBF_2WEIGHTS = 2,
    MOJOSHADER_VBF_3WEIGHTS = 3,
    MOJOSHADER_VBF_TWEENING = 255,
    MOJOSHADER_VBF_0WEIGHTS = 256
} MOJOSHADER_vertexBlendFlags;

typedef enum MOJOSHADER_patchedEdgeStyle
{
    MOJOSHADER_PATCHEDGE_DISCRETE = 0,
    MOJOSHADER_PATCHEDGE_CONTINUOUS = 1
} MOJOSHADER_patchedEdgeStyle;

typedef enum MOJOSHADER_debugMonitorTokens
{
    MOJOSHADER_DMT_ENABLE = 0,
    MOJOSHADER_DMT_DISABLE = 1
} MOJOSHADER_debugMonitorTokens;

typedef enum MOJOSHADER_blendOp
{
    MOJOSHADER_BLENDOP_ADD = 1,
    MOJOSHADER_BLENDOP_SUBTRACT = 2,
    MOJOSHADER_BLENDOP_REVSUBTRACT = 3,
    MOJOSHADER_BLENDOP_MIN = 4,
    MOJOSHADER_BLENDOP_MAX = 5
} MOJOSHADER_blendOp;

typedef enum MOJOSHADER_degreeType
{
    MOJOSHADER_DEGREE_LINEAR = 1,
    MOJOSHADER_DEGREE_QUADRATIC = 2,
    MOJOSHADER_DEGREE_CUBIC = 3,
    MOJOSHADER_DEGREE_QUINTIC = 5
} MOJOSHADER_degreeType;

typedef enum MOJOSHADER_samplerStateType
{
    MOJOSHADER_SAMP_UNKNOWN0 = 0,
    MOJOSHADER_SAMP_UNKNOWN1 = 1,
    MOJOSHADER_SAMP_UNKNOWN2 = 2,
    MOJOSHADER_SAMP_UNKNOWN3 = 3,
    MOJOSHADER_SAMP_TEXTURE = 4,
    MOJOSHADER_SAMP_ADDRESSU = 5,
    MOJOSHADER_SAMP_ADDRESSV = 6,
    MOJOSHADER_SAMP_ADDRESSW = 7,
    MOJOSHADER_SAMP_BORDERCOLOR = 8,
    MOJOSHADER_SAMP_MAGFILTER = 9,
    MOJOSHADER_SAMP_MINFILTER = 10,
    MOJOSHADER_SAMP_MIPFILTER = 11,
    MOJOSHADER_SAMP_MIPMAPLODBIAS = 12,
    MOJOSHADER_SAMP_MAXMIPLEVEL = 13,
    MOJOSHADER_SAMP_MAXANISOTROPY = 14,
    MOJOSHADER_SAMP_SRGBTEXTURE = 15,
    MOJOSHADER_SAMP_ELEMENTINDEX = 16,
    MOJOSHADER_SAMP_DMAPOFFSET = 17
} MOJOSHADER_samplerStateType;

typedef enum MOJOSHADER_textureAddress
{
    MOJOSHADER_TADDRESS_WRAP = 1,
    MOJOSHADER_TADDRESS_MIRROR = 2,
    MOJOSHADER_TADDRESS_CLAMP = 3,
    MOJOSHADER_TADDRESS_BORDER = 4,
    MOJOSHADER_TADDRESS_MIRRORONCE = 5
} MOJOSHADER_textureAddress;

typedef enum MOJOSHADER_textureFilterType
{
    MOJOSHADER_TEXTUREFILTER_NONE = 0,
    MOJOSHADER_TEXTUREFILTER_POINT = 1,
    MOJOSHADER_TEXTUREFILTER_LINEAR = 2,
    MOJOSHADER_TEXTUREFILTER_ANISOTROPIC = 3,
    MOJOSHADER_TEXTUREFILTER_PYRAMIDALQUAD = 4,
    MOJOSHADER_TEXTUREFILTER_GAUSSIANQUAD = 5,
    MOJOSHADER_TEXTUREFILTER_CONVOLUTIONMONO = 6
} MOJOSHADER_textureFilterType;

typedef struct MOJOSHADER_effectSamplerState MOJOSHADER_effectSamplerState;

typedef struct MOJOSHADER_effectValue
{
    const char *name;
    const char *semantic;
    MOJOSHADER_symbolTypeInfo type;
    unsigned int value_count;
    MOJOSHADERNAMELESS union
    {
        void                           *values;
        int                            *valuesI;
        float                          *valuesF;
        MOJOSHADER_zBufferType         *valuesZBT;
        MOJOSHADER_fillMode            *valuesFiM;
        MOJOSHADER_shadeMode           *valuesSM;
        MOJOSHADER_blendMode           *valuesBM;
        MOJOSHADER_cullMode            *valuesCM;
        MOJOSHADER_compareFunc         *valuesCF;
        MOJOSHADER_fogMode             *valuesFoM;
        MOJOSHADER_stencilOp           *valuesSO;
        MOJOSHADER_materialColorSource *valuesMCS;
        MOJOSHADER_vertexBlendFlags    *valuesVBF;
        MOJOSHADER_patchedEdgeStyle    *valuesPES;
        MOJOSHADER_debugMonitorTokens  *valuesDMT;
        MOJOSHADER_blendOp             *valuesBO;
        MOJOSHADER_degreeType          *valuesDT;
        MOJOSHADER_textureAddress      *valuesTA;
        MOJOSHADER_textureFilterType   *valuesTFT;
        MOJOSHADER_effectSamplerState  *valuesSS;
    };
} MOJOSHADER_effectValue;

typedef struct MOJOSHADER_effectState
{
    MOJOSHADER_renderStateType type;
    MOJOSHADER_effectValue value;
} MOJOSHADER_effectState;

struct MOJOSHADER_effectSamplerState
{
    MOJOSHADER_samplerStateType type;
    MOJOSHADER_effectValue value;
};

typedef MOJOSHADER_effectValue MOJOSHADER_effectAnnotation;

typedef struct MOJOSHADER_effectParam
{
    MOJOSHADER_effectValue value;
    unsigned int annotation_count;
    MOJOSHADER_effectAnnotation *annotations;
} MOJOSHADER_effectParam;

typedef struct MOJOSHADER_effectPass
{
    const char *name;
    unsigned int state_count;
    MOJOSHADER_effectState *states;
    unsigned int annotation_count;
    MOJOSHADER_effectAnnotation *annotations;
} MOJOSHADER_effectPass;

typedef struct MOJOSHADER_effectTechnique
{
    const char *name;
    unsigned int pass_count;
    MOJOSHADER_effectPass *passes;
    unsigned int annotation_count;
    MOJOSHADER_effectAnnotation *annotations;
} MOJOSHADER_effectTechnique;

typedef struct MOJOSHADER_samplerStateRegister MOJOSHADER_samplerStateRegister;

typedef struct MOJOSHADER_effectShader
{
    MOJOSHADER_symbolType type;
    unsigned int technique;
    unsigned int pass;
    unsigned int is_preshader;
    unsigned int preshader_param_count;
    unsigned int *preshader_params;
    unsigned int param_count;
    unsigned int *params;
    unsigned int sampler_count;
    MOJOSHADER_samplerStateRegister *samplers;
    MOJOSHADERNAMELESS union
    {
        void *shader;
        const MOJOSHADER_preshader *preshader;
    };
} MOJOSHADER_effectShader;

typedef struct MOJOSHADER_effectSamplerMap
{
    MOJOSHADER_symbolType type;
    const char *name;
} MOJOSHADER_effectSamplerMap;

typedef struct MOJOSHADER_effectString
{
    MOJOSHADER_symbolType type;
    const char *string;
} MOJOSHADER_effectString;

typedef struct MOJOSHADER_effectTexture
{
    MOJOSHADER_symbolType type;
} MOJOSHADER_effectTexture;

typedef union MOJOSHADER_effectObject
{
    MOJOSHADER_symbolType type;
    MOJOSHADERNAMELESS union
    {
        MOJOSHADER_effectShader shader;
        MOJOSHADER_effectSamplerMap mapping;
        MOJOSHADER_effectString string;
        MOJOSHADER_effectTexture texture;
    };
} MOJOSHADER_effectObject;

struct MOJOSHADER_samplerStateRegister
{
    const char *sampler_name;
    unsigned int sampler_register;
    unsigned int sampler_state_count;
    const MOJOSHADER_effectSamplerState *sampler_states;
};

typedef struct MOJOSHADER_effectStateChanges
{
    unsigned int render_state_change_count;
    const MOJOSHADER_effectState *render_state_changes;
    unsigned int sampler_state_change_count;
    const MOJOSHADER_samplerStateRegister *sampler_state_changes;
    unsigned int vertex_sampler_state_change_count;
    const MOJOSHADER_samplerStateRegister *vertex_sampler_state_changes;
} MOJOSHADER_effectStateChanges;

typedef void *(MOJOSHADERCALL *MOJOSHADER_compileShaderFunc)(const void *ctx,
    const char *mainfn, const unsigned char *tokenbuf, const unsigned int bufsize,
    const MOJOSHADER_swizzle *swiz, const unsigned int swizcount,
    const MOJOSHADER_samplerMap *smap, const unsigned int smapcount);
typedef void (MOJOSHADERCALL *MOJOSHADER_shaderAddRefFunc)(void *shader);
typedef void (MOJOSHADERCALL *MOJOSHADER_deleteShaderFunc)(const void *ctx, void *shader);
typedef MOJOSHADER_parseData *(MOJOSHADERCALL *MOJOSHADER_getParseDataFunc)(void *shader);
typedef void (MOJOSHADERCALL *MOJOSHADER_bindShadersFunc)(const void *ctx, void *vshader,
    void *pshader);
typedef void (MOJOSHADERCALL *MOJOSHADER_getBoundShadersFunc)(const void *ctx,
    void **vshader, void **pshader);
typedef void (MOJOSHADERCALL *MOJOSHADER_mapUniformBufferMemoryFunc)(const void *ctx,
    float **vsf, int **vsi, unsigned char **vsb,
    float **psf, int **psi, unsigned char **psb);
typedef void (MOJOSHADERCALL *MOJOSHADER_unmapUniformBufferMemoryFunc)(const void *ctx);
typedef const char *(MOJOSHADERCALL *MOJOSHADER_getErrorFunc)(const void *ctx);

typedef struct MOJOSHADER_effectShaderContext
{
    MOJOSHADER_compileShaderFunc compileShader;
    MOJOSHADER_shaderAddRefFunc shaderAddRef;
    MOJOSHADER_deleteShaderFunc deleteShader;
    MOJOSHADER_getParseDataFunc getParseData;
    MOJOSHADER_bindShadersFunc bindShaders;
    MOJOSHADER_getBoundShadersFunc getBoundShaders;
    MOJOSHADER_mapUniformBufferMemoryFunc mapUniformBufferMemory;
    MOJOSHADER_unmapUniformBufferMemoryFunc unmapUniformBufferMemory;
    MOJOSHADER_getErrorFunc getError;
    const void *shaderContext;
    MOJOSHADER_malloc m;
    MOJOSHADER_free f;
    void *malloc_data;
} MOJOSHADER_effectShaderContext;

typedef struct MOJOSHADER_effect
{
    int error_count;
    MOJOSHADER_error *errors;
    int param_count;
    MOJOSHADER_effectParam *params;
    int technique_count;
    MOJOSHADER_effectTechnique *techniques;
    int object_count;
    MOJOSHADER_effectObject *objects;
    const MOJOSHADER_effectTechnique *current_technique;
    int current_pass;
    int restore_shader_state;
    MOJOSHADER_effectStateChanges *state_changes;
    MOJOSHADER_effectShader *current_vert_raw;
    MOJOSHADER_effectShader *current_pixl_raw;
    void *current_vert;
    void *current_pixl;
    void *prev_vertex_shader;
    void *prev_pixel_shader;
    MOJOSHADER_effectShaderContext ctx;
} MOJOSHADER_effect;

DECLSPEC MOJOSHADER_effect *MOJOSHADER_compileEffect(const unsigned char *tokenbuf,
                                                     const unsigned int bufsize,
                                                     const MOJOSHADER_swizzle *swiz,
                                                     const unsigned int swizcount,
                                                     const MOJOSHADER_samplerMap *smap,
                                                     const unsigned int smapcount,
                                                     const MOJOSHADER_effectShaderContext *ctx);
DECLSPEC void MOJOSHADER_deleteEffect(const MOJOSHADER_effect *effect);
DECLSPEC MOJOSHADER_effect *MOJOSHADER_cloneEffect(const MOJOSHADER_effect *effect);
DECLSPEC void MOJOSHADER_effectSetRawValueHandle(const MOJOSHADER_effectParam *parameter,
                                                 const void *data,
                                                 const unsigned int offset,
                                                 const unsigned int len);
DECLSPEC void MOJOSHADER_effectSetRawValueName(const MOJOSHADER_effect *effect,
                                               const char *name,
                                               const void *data,
                                               const unsigned int offset,
                                               const unsigned int len);
DECLSPEC const MOJOSHADER_effectTechnique *MOJOSHADER_effectGetCurrentTechnique(const MOJOSHADER_effect *effect);
DECLSPEC void MOJOSHADER_effectSetTechnique(MOJOSHADER_effect *effect,
                                            const MOJOSHADER_effectTechnique *technique);
DECLSPEC const MOJOSHADER_effectTechnique *MOJOSHADER_effectFindNextValidTechnique(const MOJOSHADER_effect *effect,
                                                                                   const MOJOSHADER_effectTechnique *technique);
DECLSPEC void MOJOSHADER_effectBegin(MOJOSHADER_effect *effect,
                                     unsigned int *numPasses,
                                     int saveShaderState,
                                     MOJOSHADER_effectStateChanges *stateChanges);
DECLSPEC void MOJOSHADER_effectBeginPass(MOJOSHADER_effect *effect, unsigned int pass);
DECLSPEC void MOJOSHADER_effectCommitChanges(MOJOSHADER_effect *effect);
DECLSPEC void MOJOSHADER_effectEndPass(MOJOSHADER_effect *effect);
DECLSPEC void MOJOSHADER_effectEnd(MOJOSHADER_effect *effect);

#endif /* MOJOSHADER_EFFECT_SUPPORT */

#ifdef __cplusplus
}
#endif

#endif /* _INCL_MOJOSHADER_H_ */
