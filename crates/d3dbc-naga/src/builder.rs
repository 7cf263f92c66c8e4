//! Low-level naga construction helpers: the type table, and a function under
//! construction that keeps `Statement::Emit` ranges right (expressions that need no
//! emit interrupt the running range) while blocks nest.

use naga::{
    BinaryOperator, Block, Expression, Function, Handle, Literal, LocalVariable, MathFunction,
    Scalar, ScalarKind, Span, Statement, SwizzleComponent, Type, TypeInner, UniqueArena,
    VectorSize,
};

/// Handles of the types every translation uses.
pub(crate) struct Types {
    pub f32: Handle<Type>,
    pub i32: Handle<Type>,
    pub vec4f: Handle<Type>,
    pub vec4i: Handle<Type>,
    pub vec4u: Handle<Type>,
    pub vec4b: Handle<Type>,
    pub bool: Handle<Type>,
}

fn vec(s: Scalar) -> TypeInner {
    TypeInner::Vector {
        size: VectorSize::Quad,
        scalar: s,
    }
}

impl Types {
    pub fn new(types: &mut UniqueArena<Type>) -> Types {
        let mut t = |inner| types.insert(Type { name: None, inner }, Span::UNDEFINED);
        Types {
            f32: t(TypeInner::Scalar(Scalar::F32)),
            i32: t(TypeInner::Scalar(Scalar::I32)),
            vec4f: t(vec(Scalar::F32)),
            vec4i: t(vec(Scalar::I32)),
            vec4u: t(vec(Scalar::U32)),
            vec4b: t(vec(Scalar::BOOL)),
            bool: t(TypeInner::Scalar(Scalar::BOOL)),
        }
    }
}

/// Size in bytes of an entry-point output member (a vec4, a scalar or an array of
/// scalars), the offset step of the output structs.
pub(crate) fn io_member_size(inner: &TypeInner) -> u32 {
    match *inner {
        TypeInner::Scalar(_) => 4,
        TypeInner::Array {
            size: naga::ArraySize::Constant(n),
            ..
        } => 4 * n.get(),
        _ => 16,
    }
}

/// A function under construction.
pub(crate) struct Func {
    pub f: Function,
    /// Open blocks; the last one receives statements.
    blocks: Vec<Block>,
    /// First expression not yet covered by an `Emit`.
    emit_start: usize,
    /// The span every expression and statement appended now carries: the D3D9
    /// instruction being lowered (its DWORD offset), so naga's errors name it.
    pub span: Span,
    /// `vec4<u32>`, the type of [`Func::runtime_zero`]'s variable.
    vec4u: Handle<Type>,
    /// A function variable left zero-initialised and never written: loading it gives a
    /// zero that is not a constant expression.
    zero: Option<Handle<LocalVariable>>,
}

impl Func {
    /// A function named `name`; `vec4u` is the module's `vec4<u32>` type.
    pub fn new(name: &str, vec4u: Handle<Type>) -> Func {
        Func {
            f: Function {
                name: Some(name.to_string()),
                ..Function::default()
            },
            blocks: vec![Block::new()],
            emit_start: 0,
            span: Span::UNDEFINED,
            vec4u,
            zero: None,
        }
    }

    fn flush_emit(&mut self) {
        let len = self.f.expressions.len();
        if len > self.emit_start {
            let range = self.f.expressions.range_from(self.emit_start);
            self.blocks
                .last_mut()
                .expect("open block")
                .push(Statement::Emit(range), self.span);
        }
        self.emit_start = len;
    }

    /// Appends an expression (emitted in the current block when it needs it).
    pub fn e(&mut self, e: Expression) -> Handle<Expression> {
        if e.needs_pre_emit() {
            self.flush_emit();
            let h = self.f.expressions.append(e, self.span);
            self.emit_start = self.f.expressions.len();
            h
        } else {
            self.f.expressions.append(e, self.span)
        }
    }

    /// Appends a statement to the current block.
    pub fn stmt(&mut self, s: Statement) {
        self.flush_emit();
        self.blocks
            .last_mut()
            .expect("open block")
            .push(s, self.span);
    }

    /// Opens a nested block.
    pub fn open(&mut self) {
        self.flush_emit();
        self.blocks.push(Block::new());
    }

    /// Closes the innermost block and returns it.
    pub fn close(&mut self) -> Block {
        self.flush_emit();
        self.blocks.pop().expect("open block")
    }

    /// The finished function.
    pub fn finish(mut self) -> Function {
        self.flush_emit();
        while self.blocks.len() > 1 {
            let b = self.blocks.pop().unwrap();
            self.blocks
                .last_mut()
                .unwrap()
                .push(Statement::Block(b), Span::UNDEFINED);
        }
        self.f.body = self.blocks.pop().unwrap();
        self.f
    }

    // ---- expression shorthands ----

    /// A float value. Finite values are literals, except ±FLT_MAX: its shortest
    /// decimal (`340282350000000000000000000000000000000`) is above the f32 range and
    /// WGSL compilers (Tint) reject the literal, so it is `bitcast<f32>` of its bits (a
    /// finite constant expression). Infinities and NaNs cannot be WGSL constant
    /// expressions at all (a shader-creation error), so they are made at run time:
    /// [`Func::f_bits`].
    pub fn f(&mut self, v: f32) -> Handle<Expression> {
        if v.is_finite() && v.abs() != f32::MAX {
            self.e(Expression::Literal(Literal::F32(v)))
        } else {
            self.f_bits(v.to_bits())
        }
    }

    /// The float with these bits: a literal when it is an ordinary finite value,
    /// `bitcast<f32>(bits)` for ±FLT_MAX, and for infinities and NaNs
    /// `bitcast<f32>(zero | bits)` with a zero loaded at run time
    /// ([`Func::runtime_zero`]): the same value, but no constant expression.
    pub fn f_bits(&mut self, bits: u32) -> Handle<Expression> {
        let v = f32::from_bits(bits);
        if v.is_finite() && v.abs() != f32::MAX {
            return self.e(Expression::Literal(Literal::F32(v)));
        }
        let mut u = self.u(bits);
        if !v.is_finite() {
            let z = self.runtime_zero();
            u = self.bin(BinaryOperator::InclusiveOr, z, u);
        }
        self.bitcast(u, ScalarKind::Float)
    }

    /// `0u`, loaded from a function variable that is never written (WGSL and naga
    /// zero-initialise it), so that what is computed from it is not a constant
    /// expression.
    pub fn runtime_zero(&mut self) -> Handle<Expression> {
        let ty = self.vec4u;
        let lv = *self.zero.get_or_insert_with(|| {
            self.f.local_variables.append(
                LocalVariable {
                    name: Some("runtime_zero".into()),
                    ty,
                    init: None,
                },
                Span::UNDEFINED,
            )
        });
        let p = self.e(Expression::LocalVariable(lv));
        let v = self.load(p);
        self.e(Expression::AccessIndex { base: v, index: 0 })
    }
    pub fn i(&mut self, v: i32) -> Handle<Expression> {
        self.e(Expression::Literal(Literal::I32(v)))
    }
    pub fn u(&mut self, v: u32) -> Handle<Expression> {
        self.e(Expression::Literal(Literal::U32(v)))
    }
    pub fn b(&mut self, v: bool) -> Handle<Expression> {
        self.e(Expression::Literal(Literal::Bool(v)))
    }
    pub fn splat(&mut self, v: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::Splat {
            size: VectorSize::Quad,
            value: v,
        })
    }
    pub fn splat_f(&mut self, v: f32) -> Handle<Expression> {
        let l = self.f(v);
        self.splat(l)
    }
    pub fn bin(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.e(Expression::Binary { op, left, right })
    }
    pub fn add(&mut self, a: Handle<Expression>, b: Handle<Expression>) -> Handle<Expression> {
        self.bin(BinaryOperator::Add, a, b)
    }
    pub fn sub(&mut self, a: Handle<Expression>, b: Handle<Expression>) -> Handle<Expression> {
        self.bin(BinaryOperator::Subtract, a, b)
    }
    pub fn mul(&mut self, a: Handle<Expression>, b: Handle<Expression>) -> Handle<Expression> {
        self.bin(BinaryOperator::Multiply, a, b)
    }
    pub fn div(&mut self, a: Handle<Expression>, b: Handle<Expression>) -> Handle<Expression> {
        self.bin(BinaryOperator::Divide, a, b)
    }
    pub fn math(
        &mut self,
        fun: MathFunction,
        arg: Handle<Expression>,
        arg1: Option<Handle<Expression>>,
        arg2: Option<Handle<Expression>>,
    ) -> Handle<Expression> {
        self.e(Expression::Math {
            fun,
            arg,
            arg1,
            arg2,
            arg3: None,
        })
    }
    pub fn m1(&mut self, fun: MathFunction, a: Handle<Expression>) -> Handle<Expression> {
        self.math(fun, a, None, None)
    }
    pub fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        self.e(Expression::Select {
            condition,
            accept,
            reject,
        })
    }
    pub fn comp(&mut self, v: Handle<Expression>, i: u32) -> Handle<Expression> {
        self.e(Expression::AccessIndex { base: v, index: i })
    }
    pub fn swz(
        &mut self,
        v: Handle<Expression>,
        size: VectorSize,
        p: [u8; 4],
    ) -> Handle<Expression> {
        self.e(Expression::Swizzle {
            size,
            vector: v,
            pattern: p.map(|c| SWZ[c as usize & 3]),
        })
    }
    pub fn compose(&mut self, ty: Handle<Type>, c: Vec<Handle<Expression>>) -> Handle<Expression> {
        self.e(Expression::Compose { ty, components: c })
    }
    pub fn cast(&mut self, v: Handle<Expression>, kind: ScalarKind) -> Handle<Expression> {
        self.e(Expression::As {
            expr: v,
            kind,
            convert: Some(4),
        })
    }
    pub fn bitcast(&mut self, v: Handle<Expression>, kind: ScalarKind) -> Handle<Expression> {
        self.e(Expression::As {
            expr: v,
            kind,
            convert: None,
        })
    }
    pub fn load(&mut self, pointer: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::Load { pointer })
    }
    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.stmt(Statement::Store { pointer, value });
    }
}

const SWZ: [SwizzleComponent; 4] = [
    SwizzleComponent::X,
    SwizzleComponent::Y,
    SwizzleComponent::Z,
    SwizzleComponent::W,
];
