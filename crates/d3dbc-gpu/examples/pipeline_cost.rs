//! Where the time goes from D3D9 bytecode to a created Vulkan pipeline, on the first
//! Vulkan adapter (lavapipe in CI), for every vertex/pixel pair of the execution oracles:
//! decode, translation (the direct back end, and the naga path for comparison, both
//! linking the pair), `vkCreateShaderModule` and `vkCreateGraphicsPipelines`, for the
//! modules of both back ends (the driver's share is what the SPIR-V's size and shape
//! change), with the SPIR-V words each back end wrote. Raw Vulkan
//! through `ash`, so that the driver calls are timed alone (wgpu would re-translate the
//! SPIR-V through naga unless it passes it through).
//!
//! `cargo run --release -p d3dbc-gpu --example pipeline_cost -- ../shared/corpus`

use std::time::{Duration, Instant};

use ash::vk;
use d3dbc::target::interface::Interface;
use d3dbc::Shader;

fn dwords(v: &serde_json::Value) -> Option<Vec<u32>> {
    v.as_array()?
        .iter()
        .map(|s| u32::from_str_radix(s.as_str()?.trim_start_matches("0x"), 16).ok())
        .collect()
}

/// The oracle pairs (vertex, pixel tokens).
fn pairs(dir: &std::path::Path) -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut out = Vec::new();
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        for line in text.lines() {
            let Ok(r) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if let (Some(v), Some(p)) = (dwords(&r["vs_dwords"]), dwords(&r["ps_dwords"])) {
                out.push((v, p));
            }
        }
    }
    out
}

struct Vk {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    name: String,
}

fn open() -> Result<Vk, String> {
    // SAFETY: loading the system Vulkan loader; every handle below is used on this
    // thread only and destroyed before the device.
    unsafe {
        let entry = ash::Entry::load().map_err(|e| e.to_string())?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_0);
        let instance = entry
            .create_instance(
                &vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
            .map_err(|e| e.to_string())?;
        let pd = *instance
            .enumerate_physical_devices()
            .map_err(|e| e.to_string())?
            .first()
            .ok_or("no Vulkan device")?;
        let name = instance
            .get_physical_device_properties(pd)
            .device_name_as_c_str()
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_default();
        let qf = instance
            .get_physical_device_queue_family_properties(pd)
            .iter()
            .position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or("no graphics queue")? as u32;
        let prio = [1.0f32];
        let qci = vk::DeviceQueueCreateInfo::default()
            .queue_family_index(qf)
            .queue_priorities(&prio);
        let features = vk::PhysicalDeviceFeatures::default().shader_clip_distance(true);
        let device = instance
            .create_device(
                pd,
                &vk::DeviceCreateInfo::default()
                    .queue_create_infos(std::slice::from_ref(&qci))
                    .enabled_features(&features),
                None,
            )
            .map_err(|e| e.to_string())?;
        Ok(Vk {
            _entry: entry,
            instance,
            device,
            name,
        })
    }
}

#[derive(Default)]
struct Times {
    decode: Duration,
    direct: Duration,
    naga: Duration,
}

/// The driver's times and the words for one back end's modules.
#[derive(Default)]
struct Driver {
    module: Duration,
    pipeline: Duration,
    words: usize,
}

/// Creates (and destroys) the two modules and the pipeline; adds the driver times.
fn pipeline(
    d: &ash::Device,
    vs: (&[u32], &Interface),
    ps: (&[u32], &Interface),
    t: &mut Driver,
) -> Result<(), vk::Result> {
    // SAFETY: every create info points at live locals; every object is destroyed here.
    unsafe {
        let start = Instant::now();
        let vm = d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(vs.0), None)?;
        let fm = d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(ps.0), None)?;
        t.module += start.elapsed();
        t.words += vs.0.len() + ps.0.len();
        // Descriptor set layout: the union of both stages' bindings.
        let mut bindings: Vec<vk::DescriptorSetLayoutBinding> = Vec::new();
        let mut add = |b: u32, ty: vk::DescriptorType| {
            if !bindings.iter().any(|x| x.binding == b) {
                bindings.push(
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b)
                        .descriptor_type(ty)
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::ALL_GRAPHICS),
                );
            }
        };
        for i in [vs.1, ps.1] {
            for cb in [
                &i.float_constants,
                &i.int_constants,
                &i.bool_constants,
                &i.driver,
            ]
            .into_iter()
            .flatten()
            {
                add(cb.binding, vk::DescriptorType::UNIFORM_BUFFER);
            }
            for s in &i.samplers {
                add(s.texture_binding, vk::DescriptorType::SAMPLED_IMAGE);
                add(s.sampler_binding, vk::DescriptorType::SAMPLER);
            }
        }
        let dsl = d.create_descriptor_set_layout(
            &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
            None,
        )?;
        let pl = d.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default().set_layouts(std::slice::from_ref(&dsl)),
            None,
        )?;
        let ncolor = ps.1.color_outputs.iter().max().map_or(1, |m| m + 1);
        let mut atts = vec![
            vk::AttachmentDescription::default()
                .format(vk::Format::R32G32B32A32_SFLOAT)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::LOAD)
                .store_op(vk::AttachmentStoreOp::STORE)
                .initial_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .final_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL);
            ncolor as usize
        ];
        let refs: Vec<vk::AttachmentReference> = (0..ncolor)
            .map(|i| {
                vk::AttachmentReference::default()
                    .attachment(i)
                    .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            })
            .collect();
        let depth_ref = vk::AttachmentReference::default()
            .attachment(ncolor)
            .layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
        let mut sub = vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&refs);
        if ps.1.depth_output {
            atts.push(
                vk::AttachmentDescription::default()
                    .format(vk::Format::D32_SFLOAT)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .load_op(vk::AttachmentLoadOp::LOAD)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .initial_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
                    .final_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
            );
            sub = sub.depth_stencil_attachment(&depth_ref);
        }
        let rp = d.create_render_pass(
            &vk::RenderPassCreateInfo::default()
                .attachments(&atts)
                .subpasses(std::slice::from_ref(&sub)),
            None,
        )?;
        let vb: Vec<vk::VertexInputBindingDescription> = (0..vs.1.vertex_inputs.len() as u32)
            .map(|i| {
                vk::VertexInputBindingDescription::default()
                    .binding(i)
                    .stride(16)
                    .input_rate(vk::VertexInputRate::VERTEX)
            })
            .collect();
        let va: Vec<vk::VertexInputAttributeDescription> =
            vs.1.vertex_inputs
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    vk::VertexInputAttributeDescription::default()
                        .binding(i as u32)
                        .location(v.location)
                        .format(vk::Format::R32G32B32A32_SFLOAT)
                })
                .collect();
        let vi = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&vb)
            .vertex_attribute_descriptions(&va);
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let vp = vk::PipelineViewportStateCreateInfo::default()
            .viewport_count(1)
            .scissor_count(1);
        let rs = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .line_width(1.0);
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let ds = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(true)
            .depth_compare_op(vk::CompareOp::ALWAYS);
        let blend = vec![
            vk::PipelineColorBlendAttachmentState::default()
                .color_write_mask(vk::ColorComponentFlags::RGBA);
            ncolor as usize
        ];
        let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend);
        let dyns = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
        let dy = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dyns);
        let main = c"main";
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vm)
                .name(main),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fm)
                .name(main),
        ];
        let mut info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vi)
            .input_assembly_state(&ia)
            .viewport_state(&vp)
            .rasterization_state(&rs)
            .multisample_state(&ms)
            .color_blend_state(&cb)
            .dynamic_state(&dy)
            .layout(pl)
            .render_pass(rp);
        if ps.1.depth_output {
            info = info.depth_stencil_state(&ds);
        }
        let start = Instant::now();
        let p = d
            .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
            .map_err(|(_, e)| e)?;
        t.pipeline += start.elapsed();
        d.destroy_pipeline(p[0], None);
        d.destroy_render_pass(rp, None);
        d.destroy_pipeline_layout(pl, None);
        d.destroy_descriptor_set_layout(dsl, None);
        d.destroy_shader_module(vm, None);
        d.destroy_shader_module(fm, None);
    }
    Ok(())
}

fn main() {
    let dir = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "../shared/corpus".into()),
    );
    let pairs = pairs(&dir);
    let vk = match open() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("no Vulkan device: {e}");
            std::process::exit(1);
        }
    };
    let opts = d3dbc::target::options::TranslateOptions::default();
    let flags = d3dbc_spirv::EmitFlags::default();
    let mut t = Times::default();
    let (mut direct, mut via_naga) = (Driver::default(), Driver::default());
    let (mut n, mut bytes, mut failed) = (0usize, 0usize, 0usize);
    for (v, p) in &pairs {
        let start = Instant::now();
        let (Ok(vs), Ok(ps)) = (Shader::decode(v), Shader::decode(p)) else {
            continue;
        };
        t.decode += start.elapsed();
        let start = Instant::now();
        let Ok((dv, dp)) = d3dbc_spirv::link(&vs, &ps, &opts, flags) else {
            continue;
        };
        t.direct += start.elapsed();
        let start = Instant::now();
        let naga = (|| {
            let mut a = d3dbc_naga::translate(&vs, &opts).ok()?;
            let mut b = d3dbc_naga::translate(&ps, &opts).ok()?;
            d3dbc_naga::link(&mut a, &mut b).ok()?;
            Some((a.spirv().ok()?, b.spirv().ok()?))
        })();
        t.naga += start.elapsed();
        let Some((nv, np)) = naga else {
            continue;
        };
        // The naga modules bind as the direct ones do (the interfaces are equal:
        // `cargo test -p d3dbc-spirv` checks it), so the same layout serves both.
        let created = pipeline(
            &vk.device,
            (&dv.words, &dv.interface),
            (&dp.words, &dp.interface),
            &mut direct,
        )
        .and_then(|()| {
            pipeline(
                &vk.device,
                (&nv, &dv.interface),
                (&np, &dp.interface),
                &mut via_naga,
            )
        });
        match created {
            Ok(()) => {
                n += 1;
                bytes += 4 * (v.len() + p.len());
            }
            Err(e) => {
                failed += 1;
                eprintln!("pipeline: {e}");
            }
        }
    }
    // The same translations back to back (warm caches), best of five rounds.
    let shaders: Vec<(Shader, Shader)> = pairs
        .iter()
        .filter_map(|(v, p)| Some((Shader::decode(v).ok()?, Shader::decode(p).ok()?)))
        .collect();
    let warm = (0..5)
        .map(|_| {
            let start = Instant::now();
            for (vs, ps) in &shaders {
                let _ = std::hint::black_box(d3dbc_spirv::link(vs, ps, &opts, flags));
            }
            start.elapsed()
        })
        .min()
        .unwrap_or_default();
    let total = t.decode + t.direct + direct.module + direct.pipeline;
    let row = |name: &str, d: Duration| {
        println!(
            "| {name} | {:.2} | {:.1} | {:.1} % |",
            d.as_secs_f64() * 1e3,
            d.as_secs_f64() * 1e6 / n.max(1) as f64,
            100.0 * d.as_secs_f64() / total.as_secs_f64()
        );
    };
    println!(
        "{n} vertex/pixel pairs ({bytes} bytes of bytecode) on {}, {failed} failed",
        vk.name
    );
    println!("| step | total ms | µs per pair | share |");
    println!("|---|---|---|---|");
    row("decode (both shaders)", t.decode);
    row("emit + link (d3dbc-spirv)", t.direct);
    row("vkCreateShaderModule ×2", direct.module);
    row("vkCreateGraphicsPipelines", direct.pipeline);
    println!(
        "naga path for the same pairs (translate + link + write): {:.2} ms, {:.1} µs per pair",
        t.naga.as_secs_f64() * 1e3,
        t.naga.as_secs_f64() * 1e6 / n.max(1) as f64
    );
    let per = |d: Duration| d.as_secs_f64() * 1e6 / n.max(1) as f64;
    println!("| back end | SPIR-V words per pair | vkCreateShaderModule ×2 µs per pair | vkCreateGraphicsPipelines µs per pair |");
    println!("|---|---|---|---|");
    for (name, d) in [
        ("direct (d3dbc-spirv)", &direct),
        ("naga (d3dbc-naga)", &via_naga),
    ] {
        println!(
            "| {name} | {:.0} | {:.1} | {:.1} |",
            d.words as f64 / n.max(1) as f64,
            per(d.module),
            per(d.pipeline)
        );
    }
    println!(
        "emit + link back to back (warm caches): {:.2} ms, {:.1} µs per pair",
        warm.as_secs_f64() * 1e3,
        warm.as_secs_f64() * 1e6 / shaders.len().max(1) as f64
    );
    // SAFETY: every object created on the device was destroyed.
    unsafe {
        vk.device.destroy_device(None);
        vk.instance.destroy_instance(None);
    }
}
