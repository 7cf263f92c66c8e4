//! The MojoShader face's linked SPIR-V drawn on a real Vulkan driver (lavapipe in CI),
//! bound the way MojoShader's Vulkan / SDL_GPU glue binds it, and checked against the
//! Windows-verified probes of the execution oracles (`vkd3d_exec.jsonl`,
//! `wine_exec.jsonl`).
//!
//! How a draw is made, with raw Vulkan (`ash`), as FNA3D over MojoShader would: both
//! shaders go through `MOJOSHADER_parse("spirv", …)` (a ps_1_x gets the sampler map of
//! the bound textures' kinds, as MojoShader's effect framework passes it), then
//! `MOJOSHADER_linkSPIRVShaders`; the modules are the answers' outputs with the
//! `SpirvPatchTable` cut off. Descriptor sets: vertex samplers in set 0, vertex uniforms
//! in set 1, pixel samplers in set 2, pixel uniforms in set 3; sampler `s#` is a combined
//! image sampler at binding `#`; each stage's uniform buffer (binding 0 of its uniform
//! set) is filled as `mojoshader_sdlgpu.c`'s `update_uniform_buffer` fills its staging
//! buffer: for each entry of `parseData->uniforms` in order, `max(array_count, 1)`
//! 16-byte elements copied from the float or integer register file at `index`, or for
//! booleans the register's value in the element's first word. d3dbc's driver uniforms
//! (only the ps_1_x bump-environment matrix and luminance read them here) are filled at
//! binding 1 of the uniform set as d3dbc-gpu fills them. Vertex input `v#` is
//! attribute location `#` (the location MojoShader's modules declare), each input one
//! `vec4` stream expanded by the executor's element decoding. The viewport is flipped
//! (negative height, the Vulkan renderer's convention for D3D-style clip space) and
//! moved half a pixel right and down (D3D9's pixel centres, as d3dbc-gpu and DXVK do);
//! blending, depth, stencil, culling, fill mode and colour write masks are the draw's
//! render states, mapped as d3dbc-gpu maps them.
//!
//! What MojoShader's modules cannot express is not drawn, and each such record is
//! counted under its reason (alpha test, fog, user clip planes, point sprites, flat
//! shading, ps_1_x projected reads, the fixed-function pipeline: D3D9 state that d3dbc
//! compiles into its shaders by translation option, which the face's answer has no way
//! to receive). Every drawn record's probes are checked with the oracle's tolerance
//! (`Probe::check`); a record that differs must be in [`LISTED`] with its reason, and a
//! listed record that passes fails the test, as does a change of the counts.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
/// The face's own tests' `spirv` answer and module reading.
#[path = "../../d3dbc-mojoshader/tests/support/mod.rs"]
mod face;
mod support;

use std::ffi::c_int;

use ash::vk;
use d3dbc::Shader;
use d3dbc_exec::draw::{
    Address, Blend, BlendOp, Cmp, Constants, Cull, DepthFormat, FillMode, Filter, Format, Op,
    Primitive, RenderStates, StencilOp, TextureKind,
};
use d3dbc_exec::oracle::{self, Record};
use d3dbc_exec::replay::{ProbeBook, ProbeOutcome};
use d3dbc_exec::{Draw, Image};
use d3dbc_mojoshader::types::{
    MOJOSHADER_parseData, MOJOSHADER_sampler, MOJOSHADER_samplerMap, MOJOSHADER_uniform,
    UNIFORM_BOOL, UNIFORM_FLOAT, UNIFORM_INT,
};

/// Drawn records that differ from the Windows values, with the reason.
const LISTED: &[(&str, &str)] = &[];

/// Records of both oracles.
const RECORDS: usize = 384;

/// Records not drawn (each counted under its reason).
const NOT_DRAWN: usize = 12;

// ---- The face ----

/// A `MOJOSHADER_parse` answer, freed on drop.
struct Answer(*const MOJOSHADER_parseData);

impl Answer {
    /// `MOJOSHADER_parse("spirv", …)` of `tokens` with sampler map `smap`.
    fn parse(tokens: &[u32], smap: &[MOJOSHADER_samplerMap]) -> Result<Answer, String> {
        let bytes: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
        let d = face::spirv_answer_mapped(&bytes, smap);
        if d.is_null() {
            return Err("MOJOSHADER_parse returned NULL".into());
        }
        let a = Answer(d);
        if a.data().error_count > 0 {
            // SAFETY: `errors` holds `error_count` entries with NUL-terminated texts.
            let msg = unsafe { std::ffi::CStr::from_ptr((*a.data().errors).error) };
            return Err(format!("MOJOSHADER_parse: {}", msg.to_string_lossy()));
        }
        Ok(a)
    }

    fn data(&self) -> &MOJOSHADER_parseData {
        // SAFETY: a non-NULL answer, alive until `self` drops.
        unsafe { &*self.0 }
    }

    /// The SPIR-V module: the output without its `SpirvPatchTable`.
    fn module(&self) -> Vec<u32> {
        // SAFETY: a successful `spirv` answer, alive until `self` drops.
        unsafe { face::module(self.0).0 }
    }

    fn uniforms(&self) -> &[MOJOSHADER_uniform] {
        let d = self.data();
        if d.uniform_count <= 0 {
            return &[];
        }
        // SAFETY: `uniforms` holds `uniform_count` entries.
        unsafe { std::slice::from_raw_parts(d.uniforms, d.uniform_count as usize) }
    }

    fn samplers(&self) -> &[MOJOSHADER_sampler] {
        let d = self.data();
        if d.sampler_count <= 0 {
            return &[];
        }
        // SAFETY: `samplers` holds `sampler_count` entries.
        unsafe { std::slice::from_raw_parts(d.samplers, d.sampler_count as usize) }
    }
}

impl Drop for Answer {
    fn drop(&mut self) {
        // SAFETY: an answer of MOJOSHADER_parse, freed once.
        unsafe { d3dbc_mojoshader::MOJOSHADER_freeParseData(self.0) }
    }
}

/// `MOJOSHADER_linkSPIRVShaders` (no vertex element formats: every stream is `vec4`).
fn link(v: &Answer, p: &Answer) -> Result<(), String> {
    // SAFETY: both are live `spirv` answers.
    let r = unsafe { d3dbc_mojoshader::MOJOSHADER_linkSPIRVShaders(v.0, p.0, std::ptr::null(), 0) };
    if r == 0 {
        return Err("MOJOSHADER_linkSPIRVShaders failed".into());
    }
    Ok(())
}

/// One stage's uniform buffer as `update_uniform_buffer` (mojoshader_sdlgpu.c) fills it
/// from the register files: the answer's uniforms in order, `max(array_count, 1)`
/// 16-byte elements each.
fn uniform_buffer(a: &Answer, c: &Constants) -> Vec<u32> {
    let mut out = Vec::new();
    for u in a.uniforms() {
        let index = u.index.max(0) as usize;
        for j in 0..u.array_count.max(1) as usize {
            let r = index + j;
            out.extend(match u.r#type {
                UNIFORM_FLOAT => c.float.get(r).copied().unwrap_or_default(),
                UNIFORM_INT => c.int.get(r).map_or([0; 4], |v| v.map(|x| x as u32)),
                UNIFORM_BOOL => [c.bool.get(r).copied().unwrap_or(false) as u32, 0, 0, 0],
                _ => [0; 4],
            });
        }
    }
    out
}

/// The sampler map a ps_1_x gets: the bound textures' kinds (MojoShader's sampler types).
fn sampler_map(d: &Draw) -> Vec<MOJOSHADER_samplerMap> {
    (0..d3dbc::regs::MAX_TEXTURES)
        .filter_map(|s| {
            let ty = match d.texture(s)?.kind {
                TextureKind::Tex2d => 0,
                TextureKind::Cube => 1,
                TextureKind::Volume => 2,
            };
            Some(MOJOSHADER_samplerMap {
                index: s as c_int,
                r#type: ty,
            })
        })
        .collect()
}

// ---- What the face cannot draw ----

/// Why a draw cannot go through MojoShader's modules, if it cannot: state that d3dbc
/// compiles into its shaders by translation option, which the face never receives.
fn not_drawable(d: &Draw) -> Option<&'static str> {
    // The options follow the draw as D3D9 sees it (as d3dbc-gpu reads them).
    let p = d.translate_options().pipeline;
    let eq = match d3dbc_exec::pretransformed::programmable_equivalent(d) {
        Ok(e) => e,
        Err(_) => return Some("pre-transformed draw with no programmable equivalent"),
    };
    let d = eq.as_ref().unwrap_or(d);
    let Some(ps) = &d.ps else {
        return Some("fixed-function pixel pipeline: MojoShader parses shaders only");
    };
    if d.vs.is_none() {
        return Some("fixed-function vertex pipeline: MojoShader parses shaders only");
    }
    if p.alpha_test != Cmp::Always {
        return Some(
            "alpha test (D3DRS_ALPHATESTENABLE): d3dbc compiles it into the pixel shader by \
             option; MojoShader's modules have none and Vulkan has no fixed-function alpha test",
        );
    }
    if p.fog != d3dbc::target::options::FogMode::None {
        return Some(
            "fog (D3DRS_FOGENABLE): d3dbc compiles it into the pixel shader by option; \
             MojoShader's modules apply none and Vulkan has no fixed-function fog",
        );
    }
    if p.clip_planes > 0 {
        return Some(
            "user clip planes (D3DRS_CLIPPLANEENABLE): d3dbc writes them as clip distances by \
             option; MojoShader's modules write none",
        );
    }
    if p.point_expansion {
        return Some(
            "point list: d3dbc expands points in the vertex shader by option (D3D9 point size \
             and sprite state); MojoShader's modules draw no D3D9 points",
        );
    }
    if p.flat_shading {
        return Some(
            "flat shading (D3DRS_SHADEMODE): d3dbc makes colour varyings flat by option; \
             MojoShader's varyings are smooth",
        );
    }
    let ps1 = Shader::decode(ps).is_ok_and(|s| s.version.major < 2);
    if ps1 && p.projected.iter().any(|&n| n != 0) {
        return Some(
            "ps_1_x projected texture reads (D3DTTFF_PROJECTED): d3dbc divides by option; \
             MojoShader's modules take no texture-stage state",
        );
    }
    None
}

/// The first reason a record's draws cannot be drawn, if any.
fn record_not_drawable(rec: &Record) -> Option<&'static str> {
    rec.scene.ops.iter().find_map(|op| match op {
        Op::Draw(d) => not_drawable(d),
        Op::Clear(_) => None,
    })
}

// ---- Vulkan ----

fn ck<T>(r: ash::prelude::VkResult<T>, what: &str) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e}"))
}

/// The device: the first Vulkan adapter, one graphics queue, one command pool.
struct Vk {
    _entry: ash::Entry,
    instance: ash::Instance,
    dev: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    mem: vk::PhysicalDeviceMemoryProperties,
    name: String,
    non_solid: bool,
    /// The format standing in for `D3DFMT_D24S8`.
    d24s8: vk::Format,
}

impl Vk {
    fn open() -> Result<Vk, String> {
        // SAFETY: loading the system Vulkan loader; every handle created here is used on
        // this thread only and destroyed in `Drop` (or on the failure paths below).
        unsafe {
            let entry = ash::Entry::load().map_err(|e| e.to_string())?;
            let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
            let instance = ck(
                entry.create_instance(
                    &vk::InstanceCreateInfo::default().application_info(&app),
                    None,
                ),
                "vkCreateInstance",
            )?;
            let opened = (|| {
                let pd = *ck(
                    instance.enumerate_physical_devices(),
                    "vkEnumeratePhysicalDevices",
                )?
                .first()
                .ok_or("no Vulkan device")?;
                let props = instance.get_physical_device_properties(pd);
                if props.api_version < vk::API_VERSION_1_1 {
                    return Err("Vulkan 1.1 (negative viewport height) is missing".to_string());
                }
                let name = props
                    .device_name_as_c_str()
                    .map(|c| c.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let qf = instance
                    .get_physical_device_queue_family_properties(pd)
                    .iter()
                    .position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS))
                    .ok_or("no graphics queue")? as u32;
                let has = instance.get_physical_device_features(pd);
                let features = vk::PhysicalDeviceFeatures::default()
                    .fill_mode_non_solid(has.fill_mode_non_solid == vk::TRUE)
                    .independent_blend(has.independent_blend == vk::TRUE);
                let prio = [1.0f32];
                let qci = vk::DeviceQueueCreateInfo::default()
                    .queue_family_index(qf)
                    .queue_priorities(&prio);
                let dev = ck(
                    instance.create_device(
                        pd,
                        &vk::DeviceCreateInfo::default()
                            .queue_create_infos(std::slice::from_ref(&qci))
                            .enabled_features(&features),
                        None,
                    ),
                    "vkCreateDevice",
                )?;
                let pool = match dev.create_command_pool(
                    &vk::CommandPoolCreateInfo::default()
                        .queue_family_index(qf)
                        .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                    None,
                ) {
                    Ok(p) => p,
                    Err(e) => {
                        dev.destroy_device(None);
                        return Err(format!("vkCreateCommandPool: {e}"));
                    }
                };
                let d32s8 = instance
                    .get_physical_device_format_properties(pd, vk::Format::D32_SFLOAT_S8_UINT)
                    .optimal_tiling_features
                    .contains(vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT);
                Ok((
                    dev.get_device_queue(qf, 0),
                    dev,
                    pool,
                    instance.get_physical_device_memory_properties(pd),
                    name,
                    has.fill_mode_non_solid == vk::TRUE,
                    if d32s8 {
                        vk::Format::D32_SFLOAT_S8_UINT
                    } else {
                        vk::Format::D24_UNORM_S8_UINT
                    },
                ))
            })();
            match opened {
                Ok((queue, dev, pool, mem, name, non_solid, d24s8)) => Ok(Vk {
                    _entry: entry,
                    instance,
                    dev,
                    queue,
                    pool,
                    mem,
                    name,
                    non_solid,
                    d24s8,
                }),
                Err(e) => {
                    instance.destroy_instance(None);
                    Err(e)
                }
            }
        }
    }

    fn memory_type(&self, bits: u32, flags: vk::MemoryPropertyFlags) -> Result<u32, String> {
        (0..self.mem.memory_type_count)
            .find(|&i| {
                bits & (1 << i) != 0
                    && self.mem.memory_types[i as usize]
                        .property_flags
                        .contains(flags)
            })
            .ok_or_else(|| format!("no memory type {flags:?}"))
    }

    /// A host-visible buffer holding `data` (zeros to `size` bytes).
    fn buffer(
        &self,
        o: &mut Owned,
        usage: vk::BufferUsageFlags,
        data: &[u8],
        size: usize,
    ) -> Result<(vk::Buffer, vk::DeviceMemory), String> {
        let size = size.max(data.len()).max(16) as u64;
        // SAFETY: the buffer and its memory are recorded in `o`, which destroys them
        // after the device is idle; the mapped range is `size` bytes.
        unsafe {
            let b = ck(
                self.dev.create_buffer(
                    &vk::BufferCreateInfo::default().size(size).usage(usage),
                    None,
                ),
                "vkCreateBuffer",
            )?;
            o.buffers.push(b);
            let req = self.dev.get_buffer_memory_requirements(b);
            let ty = self.memory_type(
                req.memory_type_bits,
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
            )?;
            let m = ck(
                self.dev.allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(ty),
                    None,
                ),
                "vkAllocateMemory",
            )?;
            o.memory.push(m);
            ck(self.dev.bind_buffer_memory(b, m, 0), "vkBindBufferMemory")?;
            let p = ck(
                self.dev.map_memory(m, 0, size, vk::MemoryMapFlags::empty()),
                "vkMapMemory",
            )? as *mut u8;
            std::ptr::write_bytes(p, 0, size as usize);
            std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len());
            self.dev.unmap_memory(m);
            Ok((b, m))
        }
    }

    /// An image in device memory, moved to `GENERAL` layout (where it stays).
    fn image(&self, o: &mut Owned, info: &vk::ImageCreateInfo) -> Result<vk::Image, String> {
        // SAFETY: the image and its memory are recorded in `o`.
        let image = unsafe {
            let image = ck(self.dev.create_image(info, None), "vkCreateImage")?;
            o.images.push(image);
            let req = self.dev.get_image_memory_requirements(image);
            let ty = self
                .memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::DEVICE_LOCAL)
                .or_else(|_| {
                    self.memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::empty())
                })?;
            let m = ck(
                self.dev.allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(ty),
                    None,
                ),
                "vkAllocateMemory",
            )?;
            o.memory.push(m);
            ck(self.dev.bind_image_memory(image, m, 0), "vkBindImageMemory")?;
            image
        };
        let aspect = match info.format {
            vk::Format::D32_SFLOAT | vk::Format::D16_UNORM => vk::ImageAspectFlags::DEPTH,
            vk::Format::D32_SFLOAT_S8_UINT | vk::Format::D24_UNORM_S8_UINT => {
                vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
            }
            _ => vk::ImageAspectFlags::COLOR,
        };
        self.submit(|cb| {
            let barrier = vk::ImageMemoryBarrier::default()
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::GENERAL)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)
                .subresource_range(range(aspect));
            // SAFETY: recording into a command buffer in the recording state.
            unsafe {
                self.dev.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::TOP_OF_PIPE,
                    vk::PipelineStageFlags::ALL_COMMANDS,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &[barrier],
                )
            }
        })?;
        Ok(image)
    }

    /// Records `f` into a one-time command buffer between full memory barriers, submits
    /// it and waits for the queue.
    fn submit(&self, f: impl FnOnce(vk::CommandBuffer)) -> Result<(), String> {
        let all = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
            .dst_access_mask(
                vk::AccessFlags::MEMORY_READ
                    | vk::AccessFlags::MEMORY_WRITE
                    | vk::AccessFlags::HOST_READ,
            );
        // SAFETY: the command buffer is allocated from this thread's pool, recorded,
        // submitted, waited for and freed here.
        unsafe {
            let cb = ck(
                self.dev.allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(self.pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(1),
                ),
                "vkAllocateCommandBuffers",
            )?[0];
            let run = (|| {
                ck(
                    self.dev.begin_command_buffer(
                        cb,
                        &vk::CommandBufferBeginInfo::default()
                            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                    ),
                    "vkBeginCommandBuffer",
                )?;
                let barrier = |stages: vk::PipelineStageFlags| {
                    self.dev.cmd_pipeline_barrier(
                        cb,
                        vk::PipelineStageFlags::ALL_COMMANDS,
                        stages,
                        vk::DependencyFlags::empty(),
                        &[all],
                        &[],
                        &[],
                    )
                };
                barrier(vk::PipelineStageFlags::ALL_COMMANDS);
                f(cb);
                barrier(vk::PipelineStageFlags::ALL_COMMANDS | vk::PipelineStageFlags::HOST);
                ck(self.dev.end_command_buffer(cb), "vkEndCommandBuffer")?;
                ck(
                    self.dev.queue_submit(
                        self.queue,
                        &[vk::SubmitInfo::default().command_buffers(&[cb])],
                        vk::Fence::null(),
                    ),
                    "vkQueueSubmit",
                )?;
                ck(self.dev.queue_wait_idle(self.queue), "vkQueueWaitIdle")
            })();
            self.dev.free_command_buffers(self.pool, &[cb]);
            run
        }
    }
}

impl Drop for Vk {
    fn drop(&mut self) {
        // SAFETY: every other object was destroyed (by `Owned`) before; the device is
        // idle after the wait.
        unsafe {
            let _ = self.dev.device_wait_idle();
            self.dev.destroy_command_pool(self.pool, None);
            self.dev.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn range(aspect: vk::ImageAspectFlags) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: 0,
        level_count: vk::REMAINING_MIP_LEVELS,
        base_array_layer: 0,
        layer_count: vk::REMAINING_ARRAY_LAYERS,
    }
}

/// The Vulkan objects of a scene or a draw, destroyed (after the device is idle) on drop.
struct Owned<'a> {
    dev: &'a ash::Device,
    buffers: Vec<vk::Buffer>,
    images: Vec<vk::Image>,
    memory: Vec<vk::DeviceMemory>,
    views: Vec<vk::ImageView>,
    samplers: Vec<vk::Sampler>,
    modules: Vec<vk::ShaderModule>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    descriptor_pools: Vec<vk::DescriptorPool>,
    pipeline_layouts: Vec<vk::PipelineLayout>,
    render_passes: Vec<vk::RenderPass>,
    framebuffers: Vec<vk::Framebuffer>,
    pipelines: Vec<vk::Pipeline>,
}

impl<'a> Owned<'a> {
    fn new(dev: &'a ash::Device) -> Self {
        Owned {
            dev,
            buffers: Vec::new(),
            images: Vec::new(),
            memory: Vec::new(),
            views: Vec::new(),
            samplers: Vec::new(),
            modules: Vec::new(),
            set_layouts: Vec::new(),
            descriptor_pools: Vec::new(),
            pipeline_layouts: Vec::new(),
            render_passes: Vec::new(),
            framebuffers: Vec::new(),
            pipelines: Vec::new(),
        }
    }
}

impl Drop for Owned<'_> {
    fn drop(&mut self) {
        let d = self.dev;
        // SAFETY: every handle was created on `d` and is destroyed once, users first,
        // after the device has finished with them.
        unsafe {
            let _ = d.device_wait_idle();
            self.pipelines
                .iter()
                .for_each(|&x| d.destroy_pipeline(x, None));
            self.framebuffers
                .iter()
                .for_each(|&x| d.destroy_framebuffer(x, None));
            self.render_passes
                .iter()
                .for_each(|&x| d.destroy_render_pass(x, None));
            self.pipeline_layouts
                .iter()
                .for_each(|&x| d.destroy_pipeline_layout(x, None));
            self.descriptor_pools
                .iter()
                .for_each(|&x| d.destroy_descriptor_pool(x, None));
            self.set_layouts
                .iter()
                .for_each(|&x| d.destroy_descriptor_set_layout(x, None));
            self.modules
                .iter()
                .for_each(|&x| d.destroy_shader_module(x, None));
            self.samplers
                .iter()
                .for_each(|&x| d.destroy_sampler(x, None));
            self.views
                .iter()
                .for_each(|&x| d.destroy_image_view(x, None));
            self.images.iter().for_each(|&x| d.destroy_image(x, None));
            self.buffers.iter().for_each(|&x| d.destroy_buffer(x, None));
            self.memory.iter().for_each(|&x| d.free_memory(x, None));
        }
    }
}

// ---- Render targets ----

/// A colour render target.
struct Target {
    image: vk::Image,
    format: vk::Format,
    d3d: Format,
    width: u32,
    height: u32,
}

/// The depth-stencil buffer.
struct Depth {
    image: vk::Image,
    format: vk::Format,
}

/// The Vulkan format of a render target (d3dbc-gpu's choice: 8-bit formats as RGBA8).
fn rt_format(f: Format) -> vk::Format {
    match f {
        Format::A32B32G32R32F => vk::Format::R32G32B32A32_SFLOAT,
        Format::R32F => vk::Format::R32_SFLOAT,
        Format::G32R32F => vk::Format::R32G32_SFLOAT,
        Format::A16B16G16R16F => vk::Format::R16G16B16A16_SFLOAT,
        Format::R16F => vk::Format::R16_SFLOAT,
        Format::G16R16F => vk::Format::R16G16_SFLOAT,
        _ => vk::Format::R8G8B8A8_UNORM,
    }
}

fn bytes_per_pixel(f: vk::Format) -> usize {
    match f {
        vk::Format::R32G32B32A32_SFLOAT => 16,
        vk::Format::R32G32_SFLOAT | vk::Format::R16G16B16A16_SFLOAT => 8,
        vk::Format::R16_SFLOAT => 2,
        _ => 4,
    }
}

fn decode_pixel(f: vk::Format, p: &[u8]) -> [f32; 4] {
    let f32at = |i: usize| f32::from_le_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]]);
    let h = |i: usize| d3dbc_exec::format::decode_texel(Format::R16F, &p[2 * i..2 * i + 2])[0];
    match f {
        vk::Format::R32G32B32A32_SFLOAT => [f32at(0), f32at(1), f32at(2), f32at(3)],
        vk::Format::R32_SFLOAT => [f32at(0), 1.0, 1.0, 1.0],
        vk::Format::R32G32_SFLOAT => [f32at(0), f32at(1), 1.0, 1.0],
        vk::Format::R16G16B16A16_SFLOAT => [h(0), h(1), h(2), h(3)],
        vk::Format::R16_SFLOAT => [h(0), 1.0, 1.0, 1.0],
        vk::Format::R16G16_SFLOAT => [h(0), h(1), 1.0, 1.0],
        _ => [0, 1, 2, 3].map(|i| p[i] as f32 / 255.0),
    }
}

fn depth_format(vk: &Vk, f: DepthFormat) -> vk::Format {
    match f {
        DepthFormat::D24S8 => vk.d24s8,
        DepthFormat::D24X8 | DepthFormat::D32F => vk::Format::D32_SFLOAT,
        DepthFormat::D16 => vk::Format::D16_UNORM,
    }
}

fn has_stencil(f: vk::Format) -> bool {
    matches!(
        f,
        vk::Format::D32_SFLOAT_S8_UINT | vk::Format::D24_UNORM_S8_UINT
    )
}

/// Reads a render target back as RGBA floats.
fn read(vk: &Vk, t: &Target) -> Result<Image, String> {
    let mut o = Owned::new(&vk.dev);
    let bpp = bytes_per_pixel(t.format);
    let size = bpp * (t.width * t.height) as usize;
    let (buf, mem) = vk.buffer(&mut o, vk::BufferUsageFlags::TRANSFER_DST, &[], size)?;
    vk.submit(|cb| {
        let region = vk::BufferImageCopy::default()
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            })
            .image_extent(vk::Extent3D {
                width: t.width,
                height: t.height,
                depth: 1,
            });
        // SAFETY: recording a copy between live objects.
        unsafe {
            vk.dev
                .cmd_copy_image_to_buffer(cb, t.image, vk::ImageLayout::GENERAL, buf, &[region])
        }
    })?;
    // SAFETY: the memory is host visible and coherent, `size` bytes, and the copy has
    // completed (the queue is idle).
    let pixels = unsafe {
        let p = ck(
            vk.dev
                .map_memory(mem, 0, size as u64, vk::MemoryMapFlags::empty()),
            "vkMapMemory",
        )? as *const u8;
        let data = std::slice::from_raw_parts(p, size);
        let px = data
            .chunks_exact(bpp)
            .map(|c| decode_pixel(t.format, c))
            .collect();
        vk.dev.unmap_memory(mem);
        px
    };
    Ok(Image {
        width: t.width,
        height: t.height,
        format: t.d3d,
        pixels,
    })
}

fn clear_color(vk: &Vk, t: &Target, c: [f32; 4]) -> Result<(), String> {
    vk.submit(|cb| {
        // SAFETY: recording a clear of a live image in GENERAL layout.
        unsafe {
            vk.dev.cmd_clear_color_image(
                cb,
                t.image,
                vk::ImageLayout::GENERAL,
                &vk::ClearColorValue { float32: c },
                &[range(vk::ImageAspectFlags::COLOR)],
            )
        }
    })
}

fn clear_depth(vk: &Vk, d: &Depth, z: Option<f32>, stencil: Option<u32>) -> Result<(), String> {
    let mut aspect = vk::ImageAspectFlags::empty();
    if z.is_some() {
        aspect |= vk::ImageAspectFlags::DEPTH;
    }
    if stencil.is_some() && has_stencil(d.format) {
        aspect |= vk::ImageAspectFlags::STENCIL;
    }
    if aspect.is_empty() {
        return Ok(());
    }
    vk.submit(|cb| {
        // SAFETY: recording a clear of a live image in GENERAL layout.
        unsafe {
            vk.dev.cmd_clear_depth_stencil_image(
                cb,
                d.image,
                vk::ImageLayout::GENERAL,
                &vk::ClearDepthStencilValue {
                    depth: z.unwrap_or(0.0),
                    stencil: stencil.unwrap_or(0) & 0xFF,
                },
                &[range(aspect)],
            )
        }
    })
}

// ---- Replaying a record ----

/// Replays `rec` through the face and checks every probe.
fn replay(vk: &Vk, rec: &Record) -> Vec<ProbeOutcome> {
    let mut book = ProbeBook::new(rec);
    let run = run_scene(vk, rec, &mut book);
    book.finish(run.err())
}

fn run_scene(vk: &Vk, rec: &Record, book: &mut ProbeBook) -> Result<(), String> {
    let scene = &rec.scene;
    let mut o = Owned::new(&vk.dev);
    let mut targets = Vec::new();
    for t in &scene.targets {
        let format = rt_format(t.format);
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D {
                width: t.width,
                height: t.height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(
                vk::ImageUsageFlags::COLOR_ATTACHMENT
                    | vk::ImageUsageFlags::TRANSFER_SRC
                    | vk::ImageUsageFlags::TRANSFER_DST,
            )
            // SRGBWRITEENABLE draws through an sRGB view of the 8-bit targets.
            .flags(if format == vk::Format::R8G8B8A8_UNORM {
                vk::ImageCreateFlags::MUTABLE_FORMAT
            } else {
                vk::ImageCreateFlags::empty()
            });
        let target = Target {
            image: vk.image(&mut o, &info)?,
            format,
            d3d: t.format,
            width: t.width,
            height: t.height,
        };
        clear_color(vk, &target, t.initial)?;
        targets.push(target);
    }
    let depth = match &scene.depth {
        Some(dd) => {
            let format = depth_format(vk, dd.format);
            let d = Depth {
                image: vk.image(&mut o, &depth_info(format, dd.width, dd.height))?,
                format,
            };
            clear_depth(vk, &d, Some(dd.initial), Some(dd.initial_stencil))?;
            Some(d)
        }
        None => None,
    };
    let mut draws = 0;
    for op in &scene.ops {
        match op {
            Op::Clear(c) => {
                for (i, t) in targets.iter().enumerate() {
                    if c.color_enabled && c.target.is_none_or(|s| s as usize == i) {
                        clear_color(vk, t, c.color)?;
                    }
                }
                if let Some(d) = &depth {
                    clear_depth(
                        vk,
                        d,
                        c.depth_enabled.then_some(c.depth),
                        c.stencil_enabled.then_some(c.stencil),
                    )?;
                }
            }
            Op::Draw(d) => {
                draw(vk, d, &targets, depth.as_ref())?;
                draws += 1;
                if rec.probes.iter().any(|p| p.after_draws == draws) {
                    let imgs = targets
                        .iter()
                        .map(|t| read(vk, t))
                        .collect::<Result<Vec<Image>, String>>()?;
                    book.after_draws(draws, |t| imgs.get(t).map(|img| move |x, y| img.get(x, y)));
                }
            }
        }
    }
    Ok(())
}

fn depth_info(format: vk::Format, width: u32, height: u32) -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D {
            width,
            height,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_DST)
}

/// Vertex indices in draw order (triangle fans become lists, as in d3dbc-gpu).
fn vertex_order(p: Primitive, n: u32) -> Vec<u32> {
    match p {
        Primitive::TriangleFan => (1..n.saturating_sub(1))
            .flat_map(|i| [0, i, i + 1])
            .collect(),
        _ => (0..n).collect(),
    }
}

/// One mip level's texels.
type Texels = Vec<[f32; 4]>;

/// What one descriptor write binds.
enum Resource {
    Image(vk::DescriptorImageInfo),
    Buffer(vk::DescriptorBufferInfo),
}

/// A sampled texture (the executor's decoding, uploaded as RGBA32F) of MojoShader
/// sampler type `ty` at `stage`, and its sampler: d3dbc-gpu's rules (an unbound or
/// mismatched stage reads (0, 0, 0, 1); SRGBTEXTURE decodes before filtering).
fn texture(
    vk: &Vk,
    o: &mut Owned,
    d: &Draw,
    stage: usize,
    ty: c_int,
) -> Result<(vk::ImageView, vk::Sampler), String> {
    let kind = match ty {
        1 => TextureKind::Cube,
        2 => TextureKind::Volume,
        _ => TextureKind::Tex2d,
    };
    let decoded = d
        .texture(stage)
        .map(d3dbc_exec::texture::Decoded::new)
        .transpose()
        .map_err(|e| format!("texture {stage}: {e}"))?;
    let layers = |w: u32, h: u32, dd: u32| match kind {
        TextureKind::Cube => (w, h, 1, 6),
        TextureKind::Volume => (w, h, dd, 1),
        TextureKind::Tex2d => (w, h, 1, 1),
    };
    let (extent, levels): ((u32, u32, u32, u32), Vec<Texels>) = match &decoded {
        Some(t) if t.kind == kind => {
            let srgb = d.sampler(stage).srgb && t.srgb_capable;
            let lin = d3dbc_exec::format::srgb_to_linear;
            (
                layers(t.levels[0].w, t.levels[0].h, t.levels[0].d),
                t.levels
                    .iter()
                    .map(|l| {
                        let mut texels = l.texels.clone();
                        if srgb {
                            for p in &mut texels {
                                *p = [lin(p[0]), lin(p[1]), lin(p[2]), p[3]];
                            }
                        }
                        texels
                    })
                    .collect(),
            )
        }
        _ => {
            let n = if kind == TextureKind::Cube { 6 } else { 1 };
            (layers(1, 1, 1), vec![vec![[0.0, 0.0, 0.0, 1.0]; n]])
        }
    };
    let (w, h, depth, nlayers) = extent;
    let info = vk::ImageCreateInfo::default()
        .image_type(if kind == TextureKind::Volume {
            vk::ImageType::TYPE_3D
        } else {
            vk::ImageType::TYPE_2D
        })
        .flags(if kind == TextureKind::Cube {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        })
        .format(vk::Format::R32G32B32A32_SFLOAT)
        .extent(vk::Extent3D {
            width: w,
            height: h,
            depth,
        })
        .mip_levels(levels.len() as u32)
        .array_layers(nlayers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST);
    let image = vk.image(o, &info)?;
    let mut staging: Vec<u8> = Vec::new();
    let mut regions = Vec::new();
    for (mip, texels) in levels.iter().enumerate() {
        let (mw, mh) = ((w >> mip).max(1), (h >> mip).max(1));
        let md = (depth >> mip).max(1);
        let need = (mw * mh * md * nlayers) as usize;
        if texels.len() < need {
            continue;
        }
        regions.push(
            vk::BufferImageCopy::default()
                .buffer_offset(staging.len() as u64)
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: mip as u32,
                    base_array_layer: 0,
                    layer_count: nlayers,
                })
                .image_extent(vk::Extent3D {
                    width: mw,
                    height: mh,
                    depth: md,
                }),
        );
        staging.extend(
            texels[..need]
                .iter()
                .flatten()
                .flat_map(|f| f.to_le_bytes()),
        );
    }
    let (buf, _) = vk.buffer(o, vk::BufferUsageFlags::TRANSFER_SRC, &staging, 0)?;
    vk.submit(|cb| {
        // SAFETY: recording a copy between live objects, regions inside both.
        unsafe {
            vk.dev
                .cmd_copy_buffer_to_image(cb, buf, image, vk::ImageLayout::GENERAL, &regions)
        }
    })?;
    let view_type = match kind {
        TextureKind::Cube => vk::ImageViewType::CUBE,
        TextureKind::Volume => vk::ImageViewType::TYPE_3D,
        TextureKind::Tex2d => vk::ImageViewType::TYPE_2D,
    };
    let s = d.sampler(stage);
    let addr = |a: Address| match a {
        Address::Wrap => vk::SamplerAddressMode::REPEAT,
        Address::Mirror | Address::MirrorOnce => vk::SamplerAddressMode::MIRRORED_REPEAT,
        Address::Clamp => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        Address::Border => vk::SamplerAddressMode::CLAMP_TO_BORDER,
    };
    let filt = |f: Filter| match f {
        Filter::None | Filter::Point => vk::Filter::NEAREST,
        Filter::Linear | Filter::Anisotropic => vk::Filter::LINEAR,
    };
    let border = match s.border_color {
        0 => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        0xFF00_0000 => vk::BorderColor::FLOAT_OPAQUE_BLACK,
        _ => vk::BorderColor::FLOAT_OPAQUE_WHITE,
    };
    let sampler_info = vk::SamplerCreateInfo::default()
        .address_mode_u(addr(s.address_u))
        .address_mode_v(addr(s.address_v))
        .address_mode_w(addr(s.address_w))
        .mag_filter(filt(s.mag_filter))
        .min_filter(filt(s.min_filter))
        .mipmap_mode(if s.mip_filter == Filter::Linear {
            vk::SamplerMipmapMode::LINEAR
        } else {
            vk::SamplerMipmapMode::NEAREST
        })
        .min_lod(s.max_mip_level as f32)
        .max_lod(if s.mip_filter == Filter::None {
            s.max_mip_level as f32
        } else {
            32.0
        })
        .border_color(border);
    // SAFETY: the view and sampler are recorded in `o`.
    unsafe {
        let view = ck(
            vk.dev.create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(view_type)
                    .format(vk::Format::R32G32B32A32_SFLOAT)
                    .subresource_range(range(vk::ImageAspectFlags::COLOR)),
                None,
            ),
            "vkCreateImageView",
        )?;
        o.views.push(view);
        let sampler = ck(
            vk.dev.create_sampler(&sampler_info, None),
            "vkCreateSampler",
        )?;
        o.samplers.push(sampler);
        Ok((view, sampler))
    }
}

// ---- Pipeline state (d3dbc-gpu's mapping of the render states) ----

fn factor(b: Blend) -> vk::BlendFactor {
    use vk::BlendFactor as F;
    match b {
        Blend::Zero => F::ZERO,
        Blend::One => F::ONE,
        Blend::SrcColor => F::SRC_COLOR,
        Blend::InvSrcColor => F::ONE_MINUS_SRC_COLOR,
        Blend::SrcAlpha | Blend::BothSrcAlpha => F::SRC_ALPHA,
        Blend::InvSrcAlpha | Blend::BothInvSrcAlpha => F::ONE_MINUS_SRC_ALPHA,
        Blend::DestAlpha => F::DST_ALPHA,
        Blend::InvDestAlpha => F::ONE_MINUS_DST_ALPHA,
        Blend::DestColor => F::DST_COLOR,
        Blend::InvDestColor => F::ONE_MINUS_DST_COLOR,
        Blend::SrcAlphaSat => F::SRC_ALPHA_SATURATE,
        Blend::BlendFactor => F::CONSTANT_COLOR,
        Blend::InvBlendFactor => F::ONE_MINUS_CONSTANT_COLOR,
    }
}

/// One blend equation: `(src, dst, op)`; `BOTH*` sets the destination too, `MIN`/`MAX`
/// ignore the factors.
fn component(
    src: Blend,
    dst: Blend,
    op: BlendOp,
) -> (vk::BlendFactor, vk::BlendFactor, vk::BlendOp) {
    let dst = match src {
        Blend::BothSrcAlpha => Blend::InvSrcAlpha,
        Blend::BothInvSrcAlpha => Blend::SrcAlpha,
        _ => dst,
    };
    let vop = match op {
        BlendOp::Add => vk::BlendOp::ADD,
        BlendOp::Subtract => vk::BlendOp::SUBTRACT,
        BlendOp::RevSubtract => vk::BlendOp::REVERSE_SUBTRACT,
        BlendOp::Min => vk::BlendOp::MIN,
        BlendOp::Max => vk::BlendOp::MAX,
    };
    match op {
        BlendOp::Min | BlendOp::Max => (vk::BlendFactor::ONE, vk::BlendFactor::ONE, vop),
        _ => (factor(src), factor(dst), vop),
    }
}

fn blend_attachment(rs: &RenderStates, mask: u32) -> vk::PipelineColorBlendAttachmentState {
    let color = component(rs.src_blend, rs.dest_blend, rs.blend_op);
    let alpha = if rs.separate_alpha_blend {
        component(rs.src_blend_alpha, rs.dest_blend_alpha, rs.blend_op_alpha)
    } else {
        color
    };
    vk::PipelineColorBlendAttachmentState::default()
        .blend_enable(rs.blend)
        .src_color_blend_factor(color.0)
        .dst_color_blend_factor(color.1)
        .color_blend_op(color.2)
        .src_alpha_blend_factor(alpha.0)
        .dst_alpha_blend_factor(alpha.1)
        .alpha_blend_op(alpha.2)
        .color_write_mask(vk::ColorComponentFlags::from_raw(mask & 0xF))
}

fn compare(c: Cmp) -> vk::CompareOp {
    match c {
        Cmp::Never => vk::CompareOp::NEVER,
        Cmp::Less => vk::CompareOp::LESS,
        Cmp::Equal => vk::CompareOp::EQUAL,
        Cmp::LessEqual => vk::CompareOp::LESS_OR_EQUAL,
        Cmp::Greater => vk::CompareOp::GREATER,
        Cmp::NotEqual => vk::CompareOp::NOT_EQUAL,
        Cmp::GreaterEqual => vk::CompareOp::GREATER_OR_EQUAL,
        Cmp::Always => vk::CompareOp::ALWAYS,
    }
}

fn stencil_op(o: StencilOp) -> vk::StencilOp {
    match o {
        StencilOp::Keep => vk::StencilOp::KEEP,
        StencilOp::Zero => vk::StencilOp::ZERO,
        StencilOp::Replace => vk::StencilOp::REPLACE,
        StencilOp::IncrSat => vk::StencilOp::INCREMENT_AND_CLAMP,
        StencilOp::DecrSat => vk::StencilOp::DECREMENT_AND_CLAMP,
        StencilOp::Invert => vk::StencilOp::INVERT,
        StencilOp::Incr => vk::StencilOp::INCREMENT_AND_WRAP,
        StencilOp::Decr => vk::StencilOp::DECREMENT_AND_WRAP,
    }
}

/// Depth test and write, stencil (clockwise = front, the `CCW_*` states on the back
/// with two-sided stencil), for a depth buffer of format `f`; `None` for a scratch
/// buffer (neither tested nor written).
fn depth_stencil(
    rs: &RenderStates,
    f: vk::Format,
    scratch: bool,
) -> vk::PipelineDepthStencilStateCreateInfo<'static> {
    if scratch {
        return vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(false)
            .depth_compare_op(vk::CompareOp::ALWAYS);
    }
    let st = &rs.stencil;
    let face = |func: Cmp, fail, zfail, pass| {
        vk::StencilOpState::default()
            .compare_op(compare(func))
            .fail_op(stencil_op(fail))
            .depth_fail_op(stencil_op(zfail))
            .pass_op(stencil_op(pass))
            .compare_mask(st.mask & 0xFF)
            .write_mask(st.write_mask & 0xFF)
            .reference(st.reference & 0xFF)
    };
    let stencil = st.enable && has_stencil(f);
    let front = face(st.func, st.fail, st.z_fail, st.pass);
    let back = if st.two_sided {
        face(st.ccw_func, st.ccw_fail, st.ccw_z_fail, st.ccw_pass)
    } else {
        front
    };
    vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(true)
        .depth_write_enable(rs.z_enable && rs.z_write)
        .depth_compare_op(if rs.z_enable {
            compare(rs.z_func)
        } else {
            vk::CompareOp::ALWAYS
        })
        .stencil_test_enable(stencil)
        .front(front)
        .back(back)
}

// ---- One draw ----

/// A draw through the face: parse, link, bind as the glue does, draw.
fn draw(vk: &Vk, d: &Draw, targets: &[Target], depth: Option<&Depth>) -> Result<(), String> {
    let eq = d3dbc_exec::pretransformed::programmable_equivalent(d)?;
    let d = eq.as_ref().unwrap_or(d);
    let (Some(vs_tokens), Some(ps_tokens)) = (&d.vs, &d.ps) else {
        return Err("fixed-function draw".into());
    };
    let vs = Shader::decode(vs_tokens).map_err(|e| e.to_string())?;
    let ps = Shader::decode(ps_tokens).map_err(|e| e.to_string())?;
    let smap = if ps.version.major < 2 {
        sampler_map(d)
    } else {
        Vec::new()
    };
    let va = Answer::parse(vs_tokens, &[])?;
    let pa = Answer::parse(ps_tokens, &smap)?;
    link(&va, &pa)?;
    // Which (usage, index) each `v#` has, and which colour targets and depth the pixel
    // shader writes: d3dbc's reading of the same shaders (the face's modules are
    // d3dbc-spirv's, laid out again).
    let interface = |s: &Shader| {
        d3dbc_spirv::translate(s, &Default::default())
            .map(|t| t.interface)
            .map_err(|e| e.to_string())
    };
    let (vi, pi) = (interface(&vs)?, interface(&ps)?);
    let rs = &d.render_states;
    let mut o = Owned::new(&vk.dev);

    // Descriptor sets 0–3: vertex samplers, vertex uniforms, pixel samplers, pixel
    // uniforms.
    let driver: Vec<u8> = d
        .driver_uniforms()
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let mut set_layouts = Vec::new();
    // (set, binding, what).
    let mut writes: Vec<(u32, u32, Resource)> = Vec::new();
    for (set, (answer, consts, stage_flags, base)) in [
        (
            &va,
            &d.vs_constants,
            vk::ShaderStageFlags::VERTEX,
            d3dbc::regs::VERTEX_SAMPLER_BASE,
        ),
        (&pa, &d.ps_constants, vk::ShaderStageFlags::FRAGMENT, 0),
    ]
    .into_iter()
    .enumerate()
    {
        let (sampler_set, uniform_set) = (2 * set as u32, 2 * set as u32 + 1);
        let mut bindings = Vec::new();
        for s in answer.samplers() {
            let (view, sampler) = texture(vk, &mut o, d, base + s.index as usize, s.r#type)?;
            bindings.push(
                vk::DescriptorSetLayoutBinding::default()
                    .binding(s.index as u32)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .descriptor_count(1)
                    .stage_flags(stage_flags),
            );
            writes.push((
                sampler_set,
                s.index as u32,
                Resource::Image(vk::DescriptorImageInfo {
                    sampler,
                    image_view: view,
                    image_layout: vk::ImageLayout::GENERAL,
                }),
            ));
        }
        set_layouts.push(bindings);
        let words = uniform_buffer(answer, consts);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut bindings = Vec::new();
        for (binding, data) in [(0u32, &bytes), (1, &driver)] {
            let (buf, _) = vk.buffer(&mut o, vk::BufferUsageFlags::UNIFORM_BUFFER, data, 0)?;
            bindings.push(
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(stage_flags),
            );
            writes.push((
                uniform_set,
                binding,
                Resource::Buffer(vk::DescriptorBufferInfo {
                    buffer: buf,
                    offset: 0,
                    range: vk::WHOLE_SIZE,
                }),
            ));
        }
        set_layouts.push(bindings);
    }
    // Every resource the modules bind must be in the glue's layout (an unbound
    // descriptor is undefined behaviour, not a wrong value).
    for (a, stage) in [(&va, "vertex"), (&pa, "pixel")] {
        for (set, binding) in resource_bindings(&a.module()) {
            let declared = set_layouts
                .get(set as usize)
                .is_some_and(|b| b.iter().any(|x| x.binding == binding));
            if !declared {
                return Err(format!(
                    "the {stage} module binds set {set} binding {binding}, \
                     outside MojoShader's layout"
                ));
            }
        }
    }
    let nsamplers = (va.samplers().len() + pa.samplers().len()) as u32;
    let vbuffers = vertex_buffers(vk, &mut o, d, &vi)?;
    let (pipeline, layout, sets, render_pass, framebuffer, scratch) = {
        // SAFETY: every object created here is recorded in `o`; the create infos point
        // at live locals.
        unsafe {
            let mut dsls = Vec::new();
            for b in &set_layouts {
                let l = ck(
                    vk.dev.create_descriptor_set_layout(
                        &vk::DescriptorSetLayoutCreateInfo::default().bindings(b),
                        None,
                    ),
                    "vkCreateDescriptorSetLayout",
                )?;
                o.set_layouts.push(l);
                dsls.push(l);
            }
            let mut sizes = vec![vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: 4,
            }];
            if nsamplers > 0 {
                sizes.push(vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                    descriptor_count: nsamplers,
                });
            }
            let pool = ck(
                vk.dev.create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(4)
                        .pool_sizes(&sizes),
                    None,
                ),
                "vkCreateDescriptorPool",
            )?;
            o.descriptor_pools.push(pool);
            let sets = ck(
                vk.dev.allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&dsls),
                ),
                "vkAllocateDescriptorSets",
            )?;
            let infos: Vec<vk::WriteDescriptorSet> = writes
                .iter()
                .map(|(set, binding, what)| {
                    let w = vk::WriteDescriptorSet::default()
                        .dst_set(sets[*set as usize])
                        .dst_binding(*binding);
                    match what {
                        Resource::Image(i) => w
                            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                            .image_info(std::slice::from_ref(i)),
                        Resource::Buffer(b) => w
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                            .buffer_info(std::slice::from_ref(b)),
                    }
                })
                .collect();
            vk.dev.update_descriptor_sets(&infos, &[]);
            let layout = ck(
                vk.dev.create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&dsls),
                    None,
                ),
                "vkCreatePipelineLayout",
            )?;
            o.pipeline_layouts.push(layout);

            // Render pass: every target (those the shader does not write masked off),
            // the depth buffer or a scratch one for a shader writing depth without one.
            let scratch = match (depth, pi.depth_output, targets.first()) {
                (None, true, Some(t)) => {
                    let image = vk.image(
                        &mut o,
                        &depth_info(vk::Format::D32_SFLOAT, t.width, t.height),
                    )?;
                    Some(Depth {
                        image,
                        format: vk::Format::D32_SFLOAT,
                    })
                }
                _ => None,
            };
            let depth_att = depth.or(scratch.as_ref());
            let mut atts = Vec::new();
            let mut views = Vec::new();
            for t in targets {
                let format = if rs.srgb_write
                    && t.d3d.is_srgb_writable()
                    && t.format == vk::Format::R8G8B8A8_UNORM
                {
                    vk::Format::R8G8B8A8_SRGB
                } else {
                    t.format
                };
                atts.push(attachment(format));
                let v = ck(
                    vk.dev.create_image_view(
                        &vk::ImageViewCreateInfo::default()
                            .image(t.image)
                            .view_type(vk::ImageViewType::TYPE_2D)
                            .format(format)
                            .subresource_range(range(vk::ImageAspectFlags::COLOR)),
                        None,
                    ),
                    "vkCreateImageView",
                )?;
                o.views.push(v);
                views.push(v);
            }
            let refs: Vec<vk::AttachmentReference> = (0..targets.len() as u32)
                .map(|i| vk::AttachmentReference {
                    attachment: i,
                    layout: vk::ImageLayout::GENERAL,
                })
                .collect();
            let depth_ref = vk::AttachmentReference {
                attachment: targets.len() as u32,
                layout: vk::ImageLayout::GENERAL,
            };
            let mut sub = vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                .color_attachments(&refs);
            if let Some(dd) = depth_att {
                atts.push(attachment(dd.format));
                let aspect = if has_stencil(dd.format) {
                    vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
                } else {
                    vk::ImageAspectFlags::DEPTH
                };
                let v = ck(
                    vk.dev.create_image_view(
                        &vk::ImageViewCreateInfo::default()
                            .image(dd.image)
                            .view_type(vk::ImageViewType::TYPE_2D)
                            .format(dd.format)
                            .subresource_range(range(aspect)),
                        None,
                    ),
                    "vkCreateImageView",
                )?;
                o.views.push(v);
                views.push(v);
                sub = sub.depth_stencil_attachment(&depth_ref);
            }
            let render_pass = ck(
                vk.dev.create_render_pass(
                    &vk::RenderPassCreateInfo::default()
                        .attachments(&atts)
                        .subpasses(std::slice::from_ref(&sub)),
                    None,
                ),
                "vkCreateRenderPass",
            )?;
            o.render_passes.push(render_pass);
            let (fw, fh) = targets.iter().fold((u32::MAX, u32::MAX), |(w, h), t| {
                (w.min(t.width), h.min(t.height))
            });
            let framebuffer = ck(
                vk.dev.create_framebuffer(
                    &vk::FramebufferCreateInfo::default()
                        .render_pass(render_pass)
                        .attachments(&views)
                        .width(fw)
                        .height(fh)
                        .layers(1),
                    None,
                ),
                "vkCreateFramebuffer",
            )?;
            o.framebuffers.push(framebuffer);

            // The pipeline.
            let vm = ck(
                vk.dev.create_shader_module(
                    &vk::ShaderModuleCreateInfo::default().code(&va.module()),
                    None,
                ),
                "vkCreateShaderModule (vertex)",
            )?;
            o.modules.push(vm);
            let fm = ck(
                vk.dev.create_shader_module(
                    &vk::ShaderModuleCreateInfo::default().code(&pa.module()),
                    None,
                ),
                "vkCreateShaderModule (pixel)",
            )?;
            o.modules.push(fm);
            let vb: Vec<vk::VertexInputBindingDescription> = (0..vbuffers.len() as u32)
                .map(|i| vk::VertexInputBindingDescription {
                    binding: i,
                    stride: 16,
                    input_rate: vk::VertexInputRate::VERTEX,
                })
                .collect();
            let vattrs: Vec<vk::VertexInputAttributeDescription> = vbuffers
                .iter()
                .enumerate()
                .map(|(i, (_, loc))| vk::VertexInputAttributeDescription {
                    location: *loc,
                    binding: i as u32,
                    format: vk::Format::R32G32B32A32_SFLOAT,
                    offset: 0,
                })
                .collect();
            let vis = vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&vb)
                .vertex_attribute_descriptions(&vattrs);
            let topology = match d.primitive {
                Primitive::PointList => vk::PrimitiveTopology::POINT_LIST,
                Primitive::LineList => vk::PrimitiveTopology::LINE_LIST,
                Primitive::LineStrip => vk::PrimitiveTopology::LINE_STRIP,
                Primitive::TriangleStrip => vk::PrimitiveTopology::TRIANGLE_STRIP,
                Primitive::TriangleList | Primitive::TriangleFan => {
                    vk::PrimitiveTopology::TRIANGLE_LIST
                }
            };
            let ia = vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology);
            let vp = vk::PipelineViewportStateCreateInfo::default()
                .viewport_count(1)
                .scissor_count(1);
            let polygon = match rs.fill {
                FillMode::Solid => vk::PolygonMode::FILL,
                FillMode::Wireframe if vk.non_solid => vk::PolygonMode::LINE,
                FillMode::Point if vk.non_solid => vk::PolygonMode::POINT,
                f => {
                    return Err(format!(
                        "fill mode {f:?}: the device lacks fillModeNonSolid"
                    ))
                }
            };
            let step = if depth_att.is_some_and(|x| x.format == vk::Format::D16_UNORM) {
                65536.0
            } else {
                16_777_216.0
            };
            let bias =
                depth.is_some() && (rs.depth_bias != 0.0 || rs.slope_scale_depth_bias != 0.0);
            let raster = vk::PipelineRasterizationStateCreateInfo::default()
                .polygon_mode(polygon)
                .cull_mode(match rs.cull {
                    Cull::None => vk::CullModeFlags::NONE,
                    Cull::Ccw => vk::CullModeFlags::BACK,
                    Cull::Cw => vk::CullModeFlags::FRONT,
                })
                .front_face(vk::FrontFace::CLOCKWISE)
                .depth_bias_enable(bias)
                .depth_bias_constant_factor((rs.depth_bias * step).round())
                .depth_bias_slope_factor(rs.slope_scale_depth_bias)
                .line_width(1.0);
            let ms = vk::PipelineMultisampleStateCreateInfo::default()
                .rasterization_samples(vk::SampleCountFlags::TYPE_1);
            let ds = depth_att.map(|x| depth_stencil(rs, x.format, depth.is_none()));
            let blend: Vec<vk::PipelineColorBlendAttachmentState> = (0..targets.len())
                .map(|i| {
                    let mask = if !pi.color_outputs.contains(&(i as u32)) {
                        0
                    } else if i == 0 {
                        rs.color_write
                    } else {
                        rs.color_write_more.get(i - 1).copied().unwrap_or(0xF)
                    };
                    blend_attachment(rs, mask)
                })
                .collect();
            let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend);
            let dyns = [
                vk::DynamicState::VIEWPORT,
                vk::DynamicState::SCISSOR,
                vk::DynamicState::BLEND_CONSTANTS,
            ];
            let dy = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dyns);
            let stages = [
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::VERTEX)
                    .module(vm)
                    .name(c"main"),
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::FRAGMENT)
                    .module(fm)
                    .name(c"main"),
            ];
            let mut info = vk::GraphicsPipelineCreateInfo::default()
                .stages(&stages)
                .vertex_input_state(&vis)
                .input_assembly_state(&ia)
                .viewport_state(&vp)
                .rasterization_state(&raster)
                .multisample_state(&ms)
                .color_blend_state(&cb)
                .dynamic_state(&dy)
                .layout(layout)
                .render_pass(render_pass);
            if let Some(ds) = &ds {
                info = info.depth_stencil_state(ds);
            }
            let pipeline = vk
                .dev
                .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
                .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?[0];
            o.pipelines.push(pipeline);
            (pipeline, layout, sets, render_pass, framebuffer, scratch)
        }
    };
    let _keep = scratch;
    let (fw, fh) = targets.iter().fold((u32::MAX, u32::MAX), |(w, h), t| {
        (w.min(t.width), h.min(t.height))
    });
    let nverts = vertex_order(d.primitive, d.vertex_count).len() as u32;
    vk.submit(|cb| {
        let vp = &d.viewport;
        // D3D9 samples pixel (x, y) at integer window coordinates, Vulkan at x + 0.5:
        // the viewport moves half a pixel right and down; its height is negative (y up
        // in clip space, as D3D's).
        let viewport = vk::Viewport {
            x: vp.x as f32 + 0.5,
            y: vp.y as f32 + 0.5 + vp.height as f32,
            width: vp.width as f32,
            height: -(vp.height as f32),
            min_depth: vp.min_z,
            max_depth: vp.max_z,
        };
        let scissor = vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: fw,
                height: fh,
            },
        };
        let buffers: Vec<vk::Buffer> = vbuffers.iter().map(|(b, _)| *b).collect();
        let offsets = vec![0u64; buffers.len()];
        // SAFETY: recording into a command buffer in the recording state, with objects
        // that outlive its execution.
        unsafe {
            vk.dev.cmd_begin_render_pass(
                cb,
                &vk::RenderPassBeginInfo::default()
                    .render_pass(render_pass)
                    .framebuffer(framebuffer)
                    .render_area(scissor),
                vk::SubpassContents::INLINE,
            );
            vk.dev
                .cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            vk.dev.cmd_set_viewport(cb, 0, &[viewport]);
            vk.dev.cmd_set_scissor(cb, 0, &[scissor]);
            vk.dev
                .cmd_set_blend_constants(cb, &d3dbc_exec::format::d3dcolor(rs.blend_factor));
            vk.dev.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::GRAPHICS,
                layout,
                0,
                &sets,
                &[],
            );
            if !buffers.is_empty() {
                vk.dev.cmd_bind_vertex_buffers(cb, 0, &buffers, &offsets);
            }
            vk.dev.cmd_draw(cb, nverts, 1, 0, 0);
            vk.dev.cmd_end_render_pass(cb);
        }
    })
}

/// `(set, binding)` of every variable a module decorates with both.
fn resource_bindings(words: &[u32]) -> Vec<(u32, u32)> {
    const OP_DECORATE: u32 = 71;
    const DESCRIPTOR_SET: u32 = 34;
    const BINDING: u32 = 33;
    let mut sets = std::collections::BTreeMap::new();
    let mut bindings = std::collections::BTreeMap::new();
    let mut at = 5;
    while at < words.len() {
        let (len, op) = ((words[at] >> 16) as usize, words[at] & 0xFFFF);
        let i = &words[at..(at + len.max(1)).min(words.len())];
        if op == OP_DECORATE && i.len() >= 4 {
            match i[2] {
                DESCRIPTOR_SET => {
                    sets.insert(i[1], i[3]);
                }
                BINDING => {
                    bindings.insert(i[1], i[3]);
                }
                _ => {}
            }
        }
        at += len.max(1);
    }
    sets.iter()
        .filter_map(|(id, &set)| Some((set, *bindings.get(id)?)))
        .collect()
}

fn attachment(format: vk::Format) -> vk::AttachmentDescription {
    vk::AttachmentDescription::default()
        .format(format)
        .samples(vk::SampleCountFlags::TYPE_1)
        .load_op(vk::AttachmentLoadOp::LOAD)
        .store_op(vk::AttachmentStoreOp::STORE)
        .stencil_load_op(vk::AttachmentLoadOp::LOAD)
        .stencil_store_op(vk::AttachmentStoreOp::STORE)
        .initial_layout(vk::ImageLayout::GENERAL)
        .final_layout(vk::ImageLayout::GENERAL)
}

/// One `vec4` stream per vertex-shader input `v#`, at attribute location `#`: the
/// element of the declaration with the input's register (D3D8-style) or its usage and
/// index, decoded by the executor, in draw order.
fn vertex_buffers(
    vk: &Vk,
    o: &mut Owned,
    d: &Draw,
    vi: &d3dbc::target::interface::Interface,
) -> Result<Vec<(vk::Buffer, u32)>, String> {
    let order = vertex_order(d.primitive, d.vertex_count);
    let mut out = Vec::new();
    for input in &vi.vertex_inputs {
        let elem = d.vertex_declaration.iter().find(|e| {
            e.register.map(u16::from) == Some(input.register)
                || (e.register.is_none()
                    && input.usage.is_some_and(|u| u as u8 == e.usage)
                    && e.usage_index == input.usage_index)
        });
        let data: Vec<u8> = order
            .iter()
            .flat_map(|&v| {
                elem.and_then(|e| d3dbc_exec::render::read_element(d, e, v as usize))
                    .unwrap_or(d3dbc_exec::render::MISSING_INPUT)
            })
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let (b, _) = vk.buffer(o, vk::BufferUsageFlags::VERTEX_BUFFER, &data, 0)?;
        // MojoShader's modules declare input `v#` at location `#`.
        out.push((b, input.register as u32));
    }
    Ok(out)
}

// ---- The test ----

#[test]
fn oracle_pairs_drawn_through_the_mojoshader_face_match_windows() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let vk = match Vk::open() {
        Ok(v) => v,
        Err(e) => {
            support::no_device(&e);
            return;
        }
    };
    let mut records = 0;
    let (mut drawn, mut pairs, mut equal, mut listed) = (0, 0, 0, 0);
    let mut not_drawn: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    let mut problems = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        let recs = oracle::load(&dir.join(file)).expect("oracle loads");
        let mut names: std::collections::BTreeMap<String, usize> = Default::default();
        for rec in &recs {
            records += 1;
            // Names: the source, numbered from the second record of a source on.
            let k = names.entry(rec.source.clone()).or_default();
            *k += 1;
            let name = if *k == 1 {
                rec.source.clone()
            } else {
                format!("{}#{k}", rec.source)
            };
            seen.insert(name.clone());
            let listing = LISTED.iter().find(|(n, _)| *n == name);
            if let Some(why) = record_not_drawable(rec) {
                not_drawn.entry(why).or_default().push(name.clone());
                if listing.is_some() {
                    problems.push(format!("{name}: listed, but not drawn ({why})"));
                }
                continue;
            }
            drawn += 1;
            pairs += rec
                .scene
                .ops
                .iter()
                .filter(|o| matches!(o, Op::Draw(_)))
                .count();
            let failures: Vec<String> = replay(&vk, rec)
                .into_iter()
                .filter_map(|o| {
                    o.failure.map(|f| {
                        format!(
                            "{}: expected {:?}: {f}",
                            o.probe.label,
                            o.probe.expect_f32()
                        )
                    })
                })
                .collect();
            match (failures.is_empty(), listing) {
                (true, None) => equal += 1,
                (true, Some(_)) => problems.push(format!("{name}: listed, but now passes")),
                (false, Some(_)) => listed += 1,
                (false, None) => problems.push(format!(
                    "{name}: differs, not listed ({} probes), first: {}",
                    failures.len(),
                    failures[0]
                )),
            }
        }
    }
    for (n, _) in LISTED {
        if !seen.contains(*n) {
            problems.push(format!("{n}: listed, but there is no such record"));
        }
    }
    let skipped: usize = not_drawn.values().map(Vec::len).sum();
    eprintln!(
        "MojoShader face on {}: {records} records, {drawn} drawn ({pairs} vertex/pixel pairs), \
         {equal} equal to Windows, {listed} listed, {skipped} not drawn:",
        vk.name
    );
    for (why, names) in &not_drawn {
        eprintln!("  {:3} {why}: {}", names.len(), names.join(", "));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert_eq!(records, RECORDS, "the oracles' record count changed");
    assert_eq!(skipped, NOT_DRAWN, "the count of records not drawn changed");
}
